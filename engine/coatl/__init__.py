"""Cóatl (Pascale Brassard and Etienne Dubois-Roy, Synapses Games 2020): rules, components as
data, the order grammar, views and bots (docs/rules-coatl.md, docs/orders.md)."""
from engine.coatl.game import GAME, Coatl, setup_from_record
from engine.coatl.state import CoatlState

__all__ = ["GAME", "Coatl", "CoatlState", "setup_from_record"]
