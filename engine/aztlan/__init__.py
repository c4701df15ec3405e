"""Aztlán (Leo Colovini, Ares Games 2012): rules, boards and editions as data, orders, views, bots."""
from engine.aztlan.game import GAME, Aztlan, setup_from_record
from engine.aztlan.state import AztlanState

__all__ = ["GAME", "Aztlan", "AztlanState", "setup_from_record"]
