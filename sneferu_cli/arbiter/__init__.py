"""The arbiter: engine processes, engine and human seats, and the loop that plays a game.

:class:`.engine.Engine` drives one engine program through the protocol;
:class:`.human.Human` lets a person play a seat; :func:`.game.play_game` plays one game
between them and returns its :class:`sneferu_cli.record.GameRecord`.
"""
