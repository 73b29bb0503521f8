"""The game layer: games by mail over the engine and the store (joining, orders, deadlines,
processing, press, draws, notices), working on one ``GameView`` per game per transaction
(:mod:`.view`) and returning the mails each change causes (:mod:`.mails`)."""
