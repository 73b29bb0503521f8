"""The mail side of the judge: SMTP listener, MIME reading, loop detection, inbox, sender."""
