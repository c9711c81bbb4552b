"""Files written by ``fairwitness init`` (read as package data, never imported by fairwitness)."""
