"""Sneferu: Builders of the Pyramids: its rules (``rules/``) and notations (``notation/``)."""
