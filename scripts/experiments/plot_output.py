"""Writing a figure as meshsync writes its files (docs/reliability.md): under a
temporary name beside it, renamed when complete, so that a full disk never leaves a cut
PNG under the figure's name; a failure is one `meshsync: error:` line and exit 2."""
import os
import sys
from pathlib import Path


def save(fig, path, **savefig_args):
    path = Path(path)
    temporary = path.with_name(f"{path.name}.partial-{os.getpid()}")
    try:
        # The format from the figure's own name: the temporary's suffix is not an image's.
        fig.savefig(temporary, format=path.suffix.lstrip(".") or "png", **savefig_args)
        os.replace(temporary, path)
    except OSError as e:
        try:
            temporary.unlink()
        except OSError:
            pass
        print(f"meshsync: error: cannot write '{path}': {e.strerror or e}", file=sys.stderr)
        sys.exit(2)
