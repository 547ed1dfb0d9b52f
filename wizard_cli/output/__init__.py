"""Every output format rendered in one place, and the chart."""
