"""A stand-in for the Docker SDK, just as much of it as python-bitshares' tests/testnet/conftest.py
calls: ``docker.from_env().containers.run(...)`` starts graphene-rpc instead of the
``bitshares/bitshares-core:testnet`` image, and the returned object's ``remove()`` stops it.

It reads what the container would have been given: the port mapping for the RPC port, and the
node_config directory mounted at /etc/bitshares/ (its config.ini names the genesis file and the
block signing key). Core's testnet image is built with the key prefix TEST, so the node gets
``--address-prefix TEST``; the genesis' block interval becomes ``--block-interval``. Each run gets
a new data directory, as each container starts from its genesis.

The node is ``node <repo>/bin/graphene-rpc.js serve``; run.sh sets UPSTREAM_NODE_REPO,
UPSTREAM_NODE_LOG_DIR (where each node's log goes) and UPSTREAM_NODE_DATA_DIR (where its data
directory is made).
"""

import configparser
import ctypes
import json
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request

__all__ = ["from_env"]

CORE_RPC_PORT = "8091"
CONFIG_MOUNT = "/etc/bitshares/"


def from_env(version=None):
    return _Client()


class _Client:
    def __init__(self):
        self.containers = _Containers()


class _Containers:
    def run(self, image, name=None, ports=None, volumes=None, detach=False, **_ignored):
        if not detach:
            raise NotImplementedError("the stand-in only runs detached containers, as the suite does")
        config_dir = None
        for host_path, bind in (volumes or {}).items():
            if bind.get("bind") == CONFIG_MOUNT:
                config_dir = host_path
        if config_dir is None:
            raise RuntimeError("no node_config directory is mounted at " + CONFIG_MOUNT)
        port = (ports or {}).get(CORE_RPC_PORT)
        if port is None:
            raise RuntimeError("the RPC port " + CORE_RPC_PORT + " is not mapped")
        return _Node(image, name or "graphene-rpc", config_dir, int(port))


PR_SET_PDEATHSIG = 1


def _child_setup():
    """In the node's process, before it runs: it dies with the test process (a killed or crashed
    pytest leaves no node behind), and it gets back the address space run.sh's cap took from pytest
    (LMDB reserves a large map)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))


def _core_config(path):
    """witness_node's config.ini: key = value lines; a key may repeat (witness-id), the last one is kept."""
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    with open(path) as f:
        parser.read_string("[node]\n" + f.read())
    return parser["node"]


class _Node:
    def __init__(self, image, name, config_dir, port):
        repo = os.environ["UPSTREAM_NODE_REPO"]
        log_dir = os.environ.get("UPSTREAM_NODE_LOG_DIR") or tempfile.gettempdir()
        core = _core_config(os.path.join(config_dir, "config.ini"))
        genesis = core["genesis-json"]
        if genesis.startswith(CONFIG_MOUNT):
            genesis = os.path.join(config_dir, genesis[len(CONFIG_MOUNT):])
        with open(genesis) as f:
            block_interval = json.load(f)["initial_parameters"]["block_interval"]
        # The image tag says which build of Core it is: its testnet build has the prefix TEST.
        prefix = "TEST" if image.endswith(":testnet") else "BTS"
        self.name = name
        self.service_port = None
        self._data_dir = tempfile.mkdtemp(prefix="node-", dir=os.environ.get("UPSTREAM_NODE_DATA_DIR"))
        self._log_path = os.path.join(log_dir, name + ".log")
        args = [
            "node",
            os.path.join(repo, "bin", "graphene-rpc.js"),
            "serve",
            "--data-dir", self._data_dir,
            "--genesis-json", genesis,
            "--address-prefix", prefix,
            "--private-key", core["private-key"],
            "--rpc-endpoint", "127.0.0.1:{}".format(port),
            "--block-interval", str(block_interval),
            "--log-level", os.environ.get("UPSTREAM_NODE_LOG_LEVEL", "info"),
        ]
        self._log = open(self._log_path, "w")
        self._process = subprocess.Popen(args, stdout=self._log, stderr=subprocess.STDOUT, cwd=repo, preexec_fn=_child_setup)
        self._wait_ready(port)

    def _wait_ready(self, port, seconds=60):
        # docker run returns once the container has started; the suite's client then retries until the
        # node answers. Waiting here for /ready keeps a node that fails to start from hanging the suite.
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError("graphene-rpc exited with {} at start; its log: {}".format(self._process.returncode, self._log_path))
            try:
                with urllib.request.urlopen("http://127.0.0.1:{}/ready".format(port), timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError("graphene-rpc was not ready after {} s; its log: {}".format(seconds, self._log_path))

    def remove(self, v=False, force=False):
        if self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._log.close()
        shutil.rmtree(self._data_dir, ignore_errors=True)
