"""Helpers that only the tests and the benchmarks use, kept out of the wheel: `servers`
(a real Parlour process), `chromium` (Debian's Chromium for Playwright), `hostile` (a
viewer that never reads), `loops` (asyncio beside Playwright), `markup` (a view's legal
moves), `processes` (CPU time by process), `cores` (one browser given the cores) and
`fuzz` (the REST API fuzzed from its OpenAPI). The benchmarks (bench/) may import these;
these never import bench."""
