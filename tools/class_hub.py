"""A class hub: the files to run the book on JupyterHub with the Zero to JupyterHub Helm
chart (`python tools/class_hub.py --jupyterhub X.Y.Z`), into _build/class-hub/:

    Dockerfile         the single-user image: Python of runtime.txt, the reader's lock
                       (requirements.txt, installed with its hashes), jupyterhub (the same
                       version as your chart's hub: give it with --jupyterhub), the
                       edition's interlib wheel, and the notebooks in /srv/interconnects
    requirements.txt   the reader's lock, byte for byte
    interlib-*.whl     the edition's wheel (the site's own packer)
    chapters/ book/    the notebooks
    config.yaml        values for the chart: the image, resources, a copy of the notebooks
                       into each home on first start, idle culling

Build and push the image (`docker build -t REGISTRY/interconnects:TAG .`), set your
registry and authenticator in config.yaml, then
`helm upgrade --install hub jupyterhub/jupyterhub --values config.yaml`.
tests/test_class_hub.py checks what can be checked without Docker or Kubernetes (book/
instructors.md, "Running a class beyond one Binder", says what is and is not tested).
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "_build" / "class-hub"


def python_version() -> str:
    """The Python of runtime.txt (what Binder runs): ``"3.11"``."""
    m = re.fullmatch(r"python-(\d+\.\d+)", (REPO / "runtime.txt").read_text().strip())
    if not m:
        raise ValueError("runtime.txt must read python-X.Y")
    return m.group(1)


def edition() -> str:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]


def dockerfile(jupyterhub: str, wheel: str) -> str:
    return f"""# The Interconnects class image (tools/class_hub.py; do not edit: regenerate it).
FROM python:{python_version()}-slim
RUN useradd --create-home --uid 1000 jovyan
COPY requirements.txt /tmp/requirements.txt
# the reader's lock, every package checked against its sha256
RUN pip install --no-cache-dir --require-hashes -r /tmp/requirements.txt
# the hub's own server inside the image: the same version as the chart's hub
RUN pip install --no-cache-dir jupyterhub=={jupyterhub}
COPY {wheel} /tmp/{wheel}
RUN pip install --no-cache-dir --no-deps /tmp/{wheel}
COPY chapters /srv/interconnects/chapters
COPY book /srv/interconnects/book
USER jovyan
WORKDIR /home/jovyan
ENV MPLBACKEND=module://matplotlib_inline.backend_inline
CMD ["jupyterhub-singleuser"]
"""


def config_yaml(image: str, tag: str) -> str:
    return f"""# Values for the Zero to JupyterHub chart (tools/class_hub.py). Set your registry and your
# authenticator (hub.config), then: helm upgrade --install hub jupyterhub/jupyterhub --values config.yaml
singleuser:
  image:
    name: {image}
    tag: "{tag}"
  defaultUrl: /lab
  # a chapter's kernel with its figures; raise the limit if kernels are killed
  memory:
    guarantee: 1G
    limit: 2G
  cpu:
    guarantee: 0.5
    limit: 1
  storage:
    capacity: 1Gi
  lifecycleHooks:
    postStart:
      exec:
        # the notebooks into each home on first start; a student's own edits are kept
        command: ["sh", "-c", "cp -rn /srv/interconnects $HOME/ || true"]
cull:
  enabled: true
  timeout: 3600
hub:
  config:
    # replace with your institution's authenticator (see the chart's documentation)
    JupyterHub:
      authenticator_class: dummy
"""


def build(jupyterhub: str, out: Path = OUT, image: str = "REGISTRY/interconnects") -> Path:
    """Write the class hub's files into ``out``; return it."""
    if not re.fullmatch(r"\d+\.\d+\.\d+", jupyterhub):
        raise ValueError(f"jupyterhub={jupyterhub!r}: give the exact version of your chart's "
                         "hub, e.g. 5.2.1")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    sys.path.insert(0, str(REPO / "book" / "_ext"))
    import book_site

    whl = book_site.build_interlib_wheel(out)
    shutil.copy(REPO / "requirements.txt", out / "requirements.txt")
    for d in ("chapters", "book"):
        (out / d).mkdir()
        for nb in sorted((REPO / d).glob("*.ipynb")):
            if nb.name != "problems_solutions.ipynb":  # never the instructor's key
                shutil.copy(nb, out / d / nb.name)
    (out / "Dockerfile").write_text(dockerfile(jupyterhub, whl.name))
    (out / "config.yaml").write_text(config_yaml(image, edition()))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jupyterhub", required=True,
                    help="the JupyterHub version of your chart's hub (e.g. 5.2.1)")
    ap.add_argument("--image", default="REGISTRY/interconnects")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    try:
        out = build(args.jupyterhub, args.out, args.image)
    except ValueError as e:
        ap.error(str(e))
    print(out.relative_to(REPO) if out.is_relative_to(REPO) else out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
