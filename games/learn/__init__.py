"""Learn by playing: a scripted first hand per rule set on the real table (docs/learn.md)."""
