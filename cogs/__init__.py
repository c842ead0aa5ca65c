"""One cog per game system, plus the table itself and the generic roller."""
