"""The build's one piece setuptools cannot take from pyproject.toml: the solver's compiled search.

It is optional: without a C compiler the install goes on and the solver uses its pure-Python
search (the same values, far slower); see docs/analysis.md.
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
        )
    ]
)
