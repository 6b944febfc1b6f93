"""The output layer: JSON, and (in the CLI's renderers) tables for people."""
