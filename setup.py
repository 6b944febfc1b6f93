"""The build's one piece setuptools cannot take from pyproject.toml: the compiled parts.

The solver's search (docs/analysis.md), the compact JSON of a deal's tricks (`json
--compact`, docs/performance.md), the core's bulk play of a deal's tricks (every replay), the
whole reader's trick lines (every reading) and the quick check's play of a deal (`validate`,
docs/performance.md). All are optional: without a C compiler the install goes on and the
package uses its pure-Python code (the same values and the same bytes, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "dehlanote.analysis._csearch",
            ["dehlanote/analysis/_csearch.c"],
            depends=["dehlanote/analysis/_csearch_core.h"],  # the search, included twice
            optional=True,
            extra_compile_args=["-O3"],
        ),
        Extension(
            "dehlanote.output._cjson",
            ["dehlanote/output/_cjson.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "dehlanote.replay._cplay",
            ["dehlanote/replay/_cplay.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "dehlanote.syntax._ctricks",
            ["dehlanote/syntax/_ctricks.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "dehlanote.replay._cquick",
            ["dehlanote/replay/_cquick.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
    ]
)
