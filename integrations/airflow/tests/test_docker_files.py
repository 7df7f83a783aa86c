"""docker/: the files parse and hold together. No Docker engine runs here to build them."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml
from dockerfile_parse import DockerfileParser

DOCKER = Path(__file__).resolve().parents[3] / "docker"
SECRET = "/run/secrets/relaycp_secret"


@pytest.fixture(scope="module")
def dockerfile():
    parser = DockerfileParser(path=str(DOCKER / "relay" / "Dockerfile"))
    return parser


@pytest.fixture(scope="module")
def compose():
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


def instructions(dockerfile, name):
    return [item["value"] for item in dockerfile.structure if item["instruction"] == name]


def test_the_relay_runs_the_product_jar_on_a_java_17_runtime(dockerfile):
    assert dockerfile.baseimage.startswith("eclipse-temurin:17-jre")
    assert dockerfile.is_multistage
    copied = instructions(dockerfile, "COPY")
    assert any("/opt/relaycp/relaycp.jar" in value for value in copied)
    assert instructions(dockerfile, "ENTRYPOINT") == [
        '["hadoop", "jar", "/opt/relaycp/relaycp.jar"]'
    ]
    assert "relay" in instructions(dockerfile, "CMD")[0]


def test_the_relay_runs_as_a_user_that_is_not_root(dockerfile):
    users = instructions(dockerfile, "USER")
    assert users, "a USER instruction"
    user = users[-1].split(":")[0]
    assert user not in {"root", "0"}
    assert any("useradd --system --uid 10001 --gid relaycp" in value
               for value in instructions(dockerfile, "RUN"))


def test_the_secret_comes_from_a_mounted_file_not_the_image(dockerfile):
    assert SECRET in instructions(dockerfile, "CMD")[0]
    for instruction in ("COPY", "ADD", "ENV", "ARG"):
        for value in instructions(dockerfile, instruction):
            assert "secret" not in value.lower(), f"{instruction} {value}"


def test_compose_has_two_clusters_a_relay_per_side_and_a_one_shot_copy(compose):
    services = compose["services"]
    assert set(services) == {
        "namenode-a", "datanode-a", "namenode-b", "datanode-b", "relay-a", "relay-b", "copy",
    }
    for name, service in services.items():
        for dependency in service.get("depends_on", []):
            assert dependency in services, f"{name} depends on unknown {dependency}"
    for site in ("a", "b"):
        assert services[f"namenode-{site}"]["image"].startswith("apache/hadoop:")
        assert services[f"namenode-{site}"]["command"] == ["hdfs", "namenode"]
        assert services[f"datanode-{site}"]["command"] == ["hdfs", "datanode"]
        relay = services[f"relay-{site}"]
        assert relay["build"]["dockerfile"] == "docker/relay/Dockerfile"
        assert relay["secrets"] == ["relaycp_secret"]
        assert SECRET in relay["command"]
    assert compose["secrets"]["relaycp_secret"]["file"] == "./secret"


def test_the_copy_goes_from_cluster_a_to_b_through_the_two_relays(compose):
    copy = compose["services"]["copy"]
    script = copy["command"][0]
    relaycp = shlex.split(script.split("exec ", 1)[1])

    assert relaycp[:4] == ["hadoop", "jar", "/opt/relaycp/relaycp.jar", "copy"]
    assert relaycp[4].startswith("hdfs://namenode-a:8020/")
    assert relaycp[5].startswith("hdfs://namenode-b:8020/")
    options = dict(zip(relaycp[6::2], relaycp[7::2]))
    assert options["--relays"] == "relay-a:7070"
    assert options["--dst-relays"] == "relay-b:7070"
    assert options["--secret-file"] == SECRET
    assert set(copy["depends_on"]) == {"relay-a", "relay-b"}
    assert copy["secrets"] == ["relaycp_secret"]
