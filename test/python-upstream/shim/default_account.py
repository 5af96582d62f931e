"""A pytest plugin (run.sh loads it with ``-p default_account``): the library's ``default_account``
is ``init0``, in a configuration store of this run.

Several tests send operations without ``account=`` (``bitshares.transfer("init1", 1, "TEST",
append_to=proposal)``, ``create_asset(...)`` in the ``base_bitasset`` fixture, ``asset.halt()``…),
which python-bitshares then takes from ``default_account`` in its configuration store
(``~/.local/share/bitshares/bitshares.sqlite``, or under ``$XDG_DATA_HOME``). The suite never sets
it; upstream's developers had it set (``uptick set default_account init0``), to the account the
suite's ``default_account`` fixture names. run.sh points ``XDG_DATA_HOME`` at the run's own
directory, so this store is a new one, and the user's is not touched.
"""

from bitshares.storage import get_default_config_store


def pytest_configure(config):
    get_default_config_store()["default_account"] = "init0"
