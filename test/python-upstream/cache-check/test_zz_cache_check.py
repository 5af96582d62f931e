# Not part of python-bitshares' suite: run.sh --cache-check adds this file to the suite's copy to show
# that python-graphenelib 1.6.1's object cache, not the node, fails test_upgrade_account,
# test_allow_disallow, test_approve_disapprove_witness/committee and test_update_witness. Each case
# reads the node directly (which has the change), then the library's cached object (which does not),
# then the library's object again after clearing the cache. The library's classes share one cache
# (Caching._cache) until a class clears its own, keyed by id and by name for 60 s.
import asyncio

import pytest
from bitshares.aio.account import Account
from bitshares.aio.committee import Committee
from graphenecommon.blockchainobject import Caching
from graphenecommon.objectcache import ObjectCacheInMemory
from bitshares.aio.witness import Witness


@pytest.mark.asyncio
async def test_cache_a_witness_is_the_account(bitshares, default_account):
    # test_approve_disapprove_witness / _committee, test_update_witness: Witness("init1") right after
    # Account("init1") is the account's cached dict.
    await Account("init1")
    with pytest.raises(KeyError):
        (await Witness("init1"))["vote_id"]
    Witness.clear_cache()
    assert (await Witness("init1"))["vote_id"] == (await bitshares.rpc.get_witness_by_account("init1"))["vote_id"]


@pytest.mark.asyncio
async def test_cache_b_upgrade(bitshares, default_account, unused_account):
    # test_upgrade_account: the ltm_account fixture's calls cache the account before its upgrade.
    name = await unused_account()
    await bitshares.create_account(name, referrer=default_account, registrar=default_account, password="test")
    await bitshares.transfer(name, 100000, "TEST", account=default_account)
    await bitshares.upgrade_account(account=name)
    node = (await bitshares.rpc.get_accounts([name]))[0]
    assert node["lifetime_referrer"] == node["id"], "the node has the upgrade"
    assert not (await Account(name)).is_ltm, "the cached copy is from before it"
    Account.clear_cache()
    assert (await Account(name)).is_ltm


@pytest.mark.asyncio
async def test_cache_c_allow(bitshares, default_account):
    # test_allow_disallow: disallow reads the account cached before allow ("Changes nothing!").
    await Account(default_account)
    await bitshares.allow("init1", account=default_account)
    await asyncio.sleep(1.1)
    node = (await bitshares.rpc.get_accounts([default_account]))[0]
    assert ["1.2.7", 1] in node["active"]["account_auths"], "the node has the new authority"
    assert ["1.2.7", 1] not in (await Account(default_account))["active"]["account_auths"], "the cached copy does not"
    Account.clear_cache()
    await bitshares.disallow("init1", account=default_account)
    assert (await bitshares.rpc.get_accounts([default_account]))[0]["active"]["account_auths"] == []


@pytest.mark.asyncio
async def test_cache_d_a_member_read_twice(bitshares, default_account):
    # test_approve_disapprove_committee / _witness in a session of their own: approve's
    # Committee("init5") reads the account to find the member (Committee.refresh), which caches the
    # account under "init5"; disapprove's Committee("init5") then is that account.
    # The cache as the suite has it: one for every class (the cases above gave Account its own), empty.
    for cls in (Account, Committee, Witness):
        if "_cache" in cls.__dict__:
            delattr(cls, "_cache")
    Caching._cache = ObjectCacheInMemory()
    first = await Committee("init5")
    assert first["vote_id"] == (await bitshares.rpc.get_committee_member_by_account("init5"))["vote_id"]
    with pytest.raises(KeyError):
        (await Committee("init5"))["vote_id"]


@pytest.mark.asyncio
async def test_cache_e_debt_positions(bitshares, default_account, base_bitasset):
    # test_account::test_callpositions, test_asset::test_get_call_orders/test_get_settle_orders (their
    # bitasset_local fixture), test_dex::test_list_debt_positions, test_close_debt_position,
    # test_adjust_collateral_ratio: Dex.adjust_debt and Dex.list_debt_positions read
    # Account(account, full=True), which, when the name is cached from a plain Account(account), is a
    # copy of that cached dict: no "call_orders", and nothing asks the node (TypeError: 'NoneType'
    # object is not iterable, or "No call position open").
    from bitshares.aio.amount import Amount
    from bitshares.aio.asset import Asset
    from bitshares.aio.dex import Dex
    from bitshares.aio.price import Price
    for cls in (Account, Committee, Witness):
        if "_cache" in cls.__dict__:
            delattr(cls, "_cache")
    Caching._cache = ObjectCacheInMemory()
    asset = await base_bitasset()
    await bitshares.publish_price_feed(asset.symbol, await Price(10.0, base=asset, quote=await Asset("TEST")), account=default_account)
    await Account(default_account)
    assert (await Account(default_account, full=True)).get("call_orders") is None, "the cached copy has no call_orders"
    Account.clear_cache()
    assert (await Account(default_account, full=True))["call_orders"] == [], "read from the node, it has them"
    Account.clear_cache()
    dex = Dex(blockchain_instance=bitshares)
    await dex.borrow(await Amount(1000, asset), collateral_ratio=2.1, account=default_account)
    await asyncio.sleep(1.1)
    node = await bitshares.rpc.get_full_accounts([default_account], False)
    assert [c["call_price"]["quote"]["asset_id"] for c in node[0][1]["call_orders"]] == [asset["id"]], "the node has the position"
    Account.clear_cache()
    assert asset.symbol in await dex.list_debt_positions(account=default_account)
