"""A class decorator for classes whose ``__init__`` is a coroutine: ``await Cls(...)`` builds the
object and awaits its ``__init__``.

python-bitshares' aio classes import ``asyncinit`` (a small package Debian does not ship); this is
an equivalent written for graphene-rpc's harness, not a copy of it.

How it works: ``Cls(...)`` calls ``Cls.__new__``, which here returns a coroutine instead of an
instance. Python calls ``__init__`` only when ``__new__`` returns an instance of the class, so the
coroutine is what the caller gets; awaiting it makes the instance with the class's original
``__new__`` and awaits ``__init__`` on it. Subclasses inherit the behaviour (their own async
``__init__`` is the one awaited), and decorating a subclass again changes nothing.
"""

import inspect

__all__ = ["asyncinit"]

_ORIGINAL_NEW = "__asyncinit_original_new__"


def asyncinit(cls):
    if not inspect.isclass(cls):
        raise TypeError("asyncinit decorates classes, got {!r}".format(cls))
    if not inspect.iscoroutinefunction(cls.__init__):
        raise TypeError("{}.__init__ must be a coroutine function (async def)".format(cls.__qualname__))

    # The __new__ that makes the bare object: the nearest one that is not ours.
    original_new = getattr(cls.__new__, _ORIGINAL_NEW, cls.__new__)

    async def construct(klass, args, kwargs):
        if original_new is object.__new__:
            # object.__new__ refuses extra arguments once __new__ is overridden.
            instance = original_new(klass)
        else:
            instance = original_new(klass, *args, **kwargs)
        await instance.__init__(*args, **kwargs)
        return instance

    def __new__(klass, *args, **kwargs):
        return construct(klass, args, kwargs)

    setattr(__new__, _ORIGINAL_NEW, original_new)
    cls.__new__ = staticmethod(__new__)
    return cls
