"""The frame of the testbed's small command lines (rate_trace.py, scenario_file.py): a
command, its errors as one line, its usage when the arguments name none."""
import sys


def run(prog, doc, error, command, argv=None):
    """command(argv) (argv: sys.argv[1:] by default), its exit status; an error (the
    exception class) is one line 'PROG: error: ...' and status 2, and arguments that name
    no command (command returns None) print doc's second paragraph (its usage), status 2."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        status = command(argv)
    except error as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    if status is None:
        print(doc.split("\n\n")[1], file=sys.stderr)
        return 2
    return status
