"""Packaging: every code package under ``judge/``, plus the top-level data folders (maps,
templates, migrations, the DATC cases) installed inside the package as ``judge/data/<name>``;
``pyproject.toml`` maps each folder (``package-dir``) and names its files (``package-data``)."""

from setuptools import find_packages, setup

DATA = ("maps", "templates", "migrations", "datc")

setup(packages=find_packages(include=["judge", "judge.*"]) + [f"judge.data.{name}" for name in DATA])
