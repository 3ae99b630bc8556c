"""Adapters: rankflavor inside another tool's interface (`ir_measures_provider.py`: an ir_measures provider). Each
module imports its tool, so nothing imports this package but the tool's public name (`rankflavor.ir_measures`)."""
