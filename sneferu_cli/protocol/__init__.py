"""The engine protocol (SPEC.md section 6): its messages, and a helper for Python engines.

:mod:`.messages` formats and parses every line either side sends (through the Lark grammar
``protocol/engine.lark``); :mod:`.bot` runs the engine side of the protocol for a Python
program that only has to choose moves.
"""
