"""A pytest plugin (run.sh loads it with ``-p loop_compat``) that lets python-graphenelib 1.6.1's
WebSocket client run on Debian 12's Python 3.11 and websockets 10.4.

grapheneapi/aio/websocket.py passes ``loop=`` to ``asyncio.Queue``, ``asyncio.Event`` and
``websockets.connect``. Python 3.10 removed that argument from asyncio, and websockets 10 from
``connect``; on Python 3.8 and websockets 8, which the library was written for, it was accepted and
(in 3.8) already deprecated. Everything then runs on the loop that is running, which is the one the
suite passes anyway. Only that module sees the change: it gets copies of the two modules whose three
callables drop the argument; asyncio and websockets themselves are left alone.
"""

import asyncio
import functools
import types

import websockets

import grapheneapi.aio.websocket as websocket_client


def _without_loop(f):
    @functools.wraps(f)
    def call(*args, loop=None, **kwargs):
        return f(*args, **kwargs)

    return call


def _module_with(module, **replaced):
    copy = types.ModuleType(module.__name__ + " (without loop arguments)")
    copy.__dict__.update({k: v for k, v in module.__dict__.items() if not k.startswith("__")})
    copy.__dict__.update(replaced)
    return copy


websocket_client.asyncio = _module_with(asyncio, Queue=_without_loop(asyncio.Queue), Event=_without_loop(asyncio.Event))
websocket_client.websockets = _module_with(websockets, connect=_without_loop(websockets.connect))
