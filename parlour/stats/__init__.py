"""Statistics from finished games: `statistics` (the page's groups, each with its
figures and charts, kept while its results stay the same), `numbers` (the figures as
numbers), `wording` (the figures worded), `charts` (which charts the results give) and
`svg` (the charts drawn as SVG)."""
