"""Quick match: "Play now" for a rule set seats a player at a waiting rated table of
people close to their rating, or opens one and waits (see ``actions``)."""
