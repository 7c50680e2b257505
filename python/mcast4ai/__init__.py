"""mcast4ai's Python tools: sweeps into one SQLite database, shared statistics and figures,
the claims-driven evaluation and its report. The command-line entry points are scripts/sweep,
scripts/plot and scripts/evaluate; docs/evaluation.md and docs/sweeps.md describe them."""
