"""Schema-driven fuzzing of the whole REST API (bench.fuzz_api runs it long, the tests
briefly): cases from the OpenAPI through Schemathesis, dressed with what exists on the
server (`pool`), requests from outside the schema (`probes`), the checks on every answer
(`checks`), the app in this process (`app`), the run (`runner`) and its tally (`tally`)."""
