"""The operator's kit: /healthz, /metrics, JSON logs and the backup commands.

docs/operators.md is the guide; docs/configuration.md lists the settings.
"""
