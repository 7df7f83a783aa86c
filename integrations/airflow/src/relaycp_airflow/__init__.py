"""Airflow operators that run relaycp copies and plans as workflow steps."""

from relaycp_airflow.operators import (
    RelaycpOperator,
    RelaycpPlanOperator,
    RelaycpRelayPoolStartOperator,
    RelaycpRelayPoolStopOperator,
)

__all__ = [
    "RelaycpOperator",
    "RelaycpPlanOperator",
    "RelaycpRelayPoolStartOperator",
    "RelaycpRelayPoolStopOperator",
    "get_provider_info",
]
__version__ = "0.1.0"


def get_provider_info():
    """Provider metadata Airflow reads through the ``apache_airflow_provider`` entry point."""
    return {
        "package-name": "relaycp-airflow",
        "name": "relaycp",
        "description": "Copy directory trees between Hadoop clusters with relaycp.",
        "versions": [__version__],
    }
