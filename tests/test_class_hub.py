"""The class hub's files (tools/class_hub.py; issue 35 item 9). Docker and Kubernetes are
not available here: what is tested is that the image is built from the reader's lock (byte
for byte), the Python of runtime.txt, the edition's interlib wheel and the notebooks
(never the instructor's key), and that the chart's values parse and name that image.
"""

from __future__ import annotations

import re
import sys
import zipfile

import pytest
import yaml

from conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
import class_hub  # noqa: E402


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    return class_hub.build("5.2.1", tmp_path_factory.mktemp("hub") / "class-hub")


def test_the_image_is_the_readers_lock_and_the_editions_wheel(hub):
    assert (hub / "requirements.txt").read_bytes() == (REPO / "requirements.txt").read_bytes()
    docker = (hub / "Dockerfile").read_text()
    assert docker.startswith("# The Interconnects class image")
    assert re.search(r"^FROM python:3\.11-slim$", docker, re.M)
    assert (REPO / "runtime.txt").read_text().strip() == "python-3.11"
    assert "--require-hashes -r /tmp/requirements.txt" in docker
    assert "jupyterhub==5.2.1" in docker and 'CMD ["jupyterhub-singleuser"]' in docker
    (whl,) = hub.glob("interlib-*.whl")
    assert whl.name == f"interlib-{class_hub.edition()}-py3-none-any.whl"
    assert f"COPY {whl.name} " in docker and f"--no-deps /tmp/{whl.name}" in docker
    with zipfile.ZipFile(whl) as z:
        assert "interlib/book/problems.py" in z.namelist()
        assert not any(n.endswith(("keys.py", "grading.py")) for n in z.namelist())
    # every notebook of the book, and never the instructor's key
    names = {p.name for p in (hub / "chapters").glob("*.ipynb")}
    assert names == {p.name for p in (REPO / "chapters").glob("*.ipynb")}
    assert not (hub / "book" / "problems_solutions.ipynb").exists()
    assert (hub / "book" / "problems_1_2.ipynb").exists()


def test_the_charts_values_parse_and_name_the_image(hub):
    cfg = yaml.safe_load((hub / "config.yaml").read_text())
    su = cfg["singleuser"]
    assert su["image"] == {"name": "REGISTRY/interconnects", "tag": class_hub.edition()}
    assert su["defaultUrl"] == "/lab"
    assert "/srv/interconnects" in " ".join(su["lifecycleHooks"]["postStart"]["exec"]["command"])
    assert cfg["cull"]["enabled"] is True


def test_a_vague_jupyterhub_version_is_refused(tmp_path):
    with pytest.raises(ValueError, match="^jupyterhub='5': give the exact version"):
        class_hub.build("5", tmp_path / "x")
