"""idxmap: integer-set indexing maps for tensor compilers (docs/api.md, python/README.md).

Maps parse from any text form (XLA / idxmap, MLIR affine_map with a domain, isl), simplify,
compose and are proven equal; programs (HLO or MLIR) give each op's maps, the index
properties of their gathers and scatters, kernels, and prove-equal. Failures raise
idxmap.Error, whose str() is the diagnostic the CLI prints.
"""


class Error(Exception):
    """A failure, with the diagnostic as the CLI prints it (file:line:col, source line, caret).

    message is the text without location; file, line and column locate it (line 0 when the
    failure has no location)."""

    def __init__(self, diagnostic, message="", file="", line=0, column=0):
        super().__init__(diagnostic)
        self.diagnostic = diagnostic
        self.message = message
        self.file = file
        self.line = line
        self.column = column


from ._idxmap import (  # noqa: E402  (the native module raises Error, defined above)
    Map,
    ProofResult,
    Program,
    compose,
    parse,
    parse_all,
    prove_equal,
    prove_programs_equal,
    read_program,
    simplify,
)

__all__ = [
    "Error", "Map", "ProofResult", "Program", "compose", "parse", "parse_all", "prove_equal",
    "prove_programs_equal", "read_program", "simplify",
]
