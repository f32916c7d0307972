"""What tests share beyond fixtures: waits (``waits``). Import it; it has no fixtures."""
