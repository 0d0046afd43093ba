"""A PEP 517 build backend in the standard library only, so `pip install ./sdk/python` works offline
(no setuptools or wheel download). It builds a pure-Python wheel of the `fundgate` package."""
import base64
import hashlib
import os
import tarfile
import zipfile

NAME, VERSION = "fundgate", "0.1.0"
HERE = os.path.dirname(os.path.abspath(__file__))
DIST_INFO = f"{NAME}-{VERSION}.dist-info"
METADATA = (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n"
            "Summary: Official Python SDK for the fundgate API: the fund read and propose surface. Standard library only.\n"
            "Requires-Python: >=3.8\nClassifier: Programming Language :: Python :: 3\nClassifier: Typing :: Typed\n"
            "Description-Content-Type: text/markdown\n")
WHEEL = "Wheel-Version: 1.0\nGenerator: fundgate-build-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _metadata():
    """METADATA with README.md as the long description (the message body, as pyproject's readme asks)."""
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as readme:
        return METADATA + "\n" + readme.read()


def _package_files():
    for root, dirs, files in os.walk(os.path.join(HERE, NAME)):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in sorted(files):
            if not f.endswith(".pyc"):
                full = os.path.join(root, f)
                yield full, os.path.relpath(full, HERE).replace(os.sep, "/")


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    filename = f"{NAME}-{VERSION}-py3-none-any.whl"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as whl:
        entries = [(arc, open(full, "rb").read()) for full, arc in _package_files()]
        entries += [(f"{DIST_INFO}/METADATA", _metadata().encode("utf-8")), (f"{DIST_INFO}/WHEEL", WHEEL.encode())]
        for arcname, data in entries:
            whl.writestr(arcname, data)
            records.append(_record_line(arcname, data))
        records.append(f"{DIST_INFO}/RECORD,,")
        whl.writestr(f"{DIST_INFO}/RECORD", "\n".join(records) + "\n")
    return filename


def build_sdist(sdist_directory, config_settings=None):
    base = f"{NAME}-{VERSION}"
    path = os.path.join(sdist_directory, f"{base}.tar.gz")
    with tarfile.open(path, "w:gz") as tar:
        for rel in ["pyproject.toml", "_build_backend.py", "README.md"]:
            tar.add(os.path.join(HERE, rel), arcname=f"{base}/{rel}")
        for full, arc in _package_files():
            tar.add(full, arcname=f"{base}/{arc}")
    return os.path.basename(path)


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []
