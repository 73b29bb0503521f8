"""The game layer: games as the judge plays them, between the command layer and the engine
(see ``judge/commands/README.md`` and design.md)."""
