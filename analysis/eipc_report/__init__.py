"""Tables and plots of an `eipc sweep` directory (see docs/report.md)."""
