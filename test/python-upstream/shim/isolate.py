"""A pytest plugin for attribution runs (``run.sh --isolate`` loads it with ``-p isolate``; the
plain run does not): after each test, the library's shared instance forgets what that test left
behind, so that each test's outcome is its own.

python-bitshares keeps the operations of a call whose ``get_required_fees`` failed in the instance's
transaction buffer (it clears the buffer only after a broadcast), and ``test_approve_proposal``,
``test_disapprove_proposal`` and ``test_htlc`` set ``blocking = "head"`` and reset it only when they
pass. On a node that refuses an operation, that leftover rides along with every later operation
of the session, and every later test fails with the first refusal. This plugin clears the buffers
and resets ``blocking`` before and after each test; nothing else.
"""

from bitshares.aio.instance import SharedInstance


def _forget():
    instance = SharedInstance.instance
    if instance is not None:
        instance.clear()
        instance.blocking = None


def pytest_runtest_setup(item):
    # Before the test's fixtures: a module fixture that failed in an earlier test's setup left its
    # operations behind before any fixture of that test could clean up.
    _forget()


def pytest_runtest_teardown(item, nextitem):
    _forget()
