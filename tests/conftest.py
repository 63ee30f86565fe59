"""discord.py imports the deprecated ``audioop`` module; load it once with that warning silenced,
so ``-W error`` still catches every warning of our own code."""

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord  # noqa: F401
