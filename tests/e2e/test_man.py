"""End-to-end: the man pages the binary writes (`zanj --generate man DIR`, as the build does,
from docs/man/*.md and its own options) render without groff warnings and document what the
binary actually offers (every command in zanj(1), every option in each zanj-CMD(1)); --help
shows the page's examples and exit status."""
import glob
import os
import re
import subprocess
import tempfile

from common import SOURCE_DIR, ZanjTest, main, run

SECTIONS = ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES", "SEE ALSO")
GENERATED = tempfile.TemporaryDirectory()
MAN_DIR = GENERATED.name


def pages():
    if not os.listdir(MAN_DIR):
        run("--generate", "man", MAN_DIR)
    return sorted(glob.glob(os.path.join(MAN_DIR, "*.1")))


def render(page):
    """The page as plain text: no overstriking, no hyphenation, long lines (so that option
    names are never broken across lines)."""
    p = subprocess.run(["groff", "-man", "-Tascii", "-P-c", "-P-b", "-P-u", "-rHY=0", "-rLL=250n", page],
                       capture_output=True, check=True)
    return p.stdout.decode("ascii")


def help_options(*command):
    """Option names (-x, --long) listed under "Options:" by `zanj [COMMAND] --help`."""
    text = run(*command, "--help").text
    options, in_options = set(), False
    for line in text.splitlines():
        if line.strip().endswith(":") and not line.startswith(" "):
            in_options = line.startswith("Options")
            continue
        m = re.match(r"^\s+(-\S+)", line)
        if in_options and m:
            for name in m.group(1).split(","):
                options.add(re.sub(r"\{.*\}$", "", name))
    return options


def help_commands():
    text = run("--help").text
    listed = text.split("Subcommands:", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in listed.splitlines() if line.strip()]


class ManPages(ZanjTest):
    def test_pages_exist(self):
        names = [os.path.basename(p) for p in pages()]
        sources = sorted(os.path.basename(p)[: -len(".md")] + ".1"
                         for p in glob.glob(os.path.join(SOURCE_DIR, "docs", "man", "zanj*.md")))
        self.assertEqual(names, sources)
        self.assertEqual(names, sorted(["zanj.1"] + [f"zanj-{c}.1" for c in help_commands()]))

    def test_generated_only_from_sources(self):
        """No hand-written page is left beside the sources, and a rerun writes the same bytes."""
        self.assertFalse(os.path.exists(os.path.join(SOURCE_DIR, "man")))
        with tempfile.TemporaryDirectory() as again:
            run("--generate", "man", again)
            for page in pages():
                with open(page, "rb") as a, open(os.path.join(again, os.path.basename(page)), "rb") as b:
                    self.assertEqual(a.read(), b.read(), page)

    def test_generate_refuses_a_bad_call(self):
        for args in (("html", MAN_DIR), ("man",), ("man", "/nonexistent/dir")):
            result = run("--generate", *args)
            self.assertEqual(result.code, 2, args)
            self.assertTrue(result.err.startswith("zanj: error: "), result.err)

    def test_help_shows_the_pages_examples_and_exit_status(self):
        for command in help_commands():
            text = run(command, "--help").text
            for heading in ("Examples:", "Exit status:", f"man zanj-{command}"):
                self.assertIn(heading, text, f"zanj {command} --help")

    def test_render_without_warnings(self):
        for page in pages():
            p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", page], capture_output=True)
            self.assertEqual((p.returncode, p.stdout, p.stderr.decode()), (0, b"", ""), page)

    def test_structure(self):
        for page in pages():
            name = os.path.basename(page)[: -len(".1")]
            with open(page, encoding="ascii") as f:
                source = f.read()  # ASCII only: special characters are written as groff escapes
            self.assertIn(f"\n.TH {name.upper()} 1 ", source, page)
            text = render(page)
            for section in SECTIONS:
                self.assertTrue(re.search(rf"(?m)^{section}$", text), f"{page}: no {section} section")
            self.assertIn(f"{name} - ", text.split("SYNOPSIS")[0], f"{page}: NAME line")

    def test_zanj_page_names_every_command_and_global_option(self):
        pages()
        text = render(os.path.join(MAN_DIR, "zanj.1"))
        commands = help_commands()
        self.assertGreaterEqual(set(commands), {"info", "ls"})
        for command in commands:
            self.assertTrue(re.search(rf"(?m)^\s+zanj {command}\b", text), f"zanj(1) has no entry for {command}")
            self.assertIn(f"zanj-{command}(1)", text)
        for option in help_options():
            self.assertIn(option, text, f"zanj(1) does not document {option}")

    def test_command_pages_document_every_option(self):
        commands = help_commands()
        for page in pages():
            command = os.path.basename(page)[len("zanj-"): -len(".1")]
            if not os.path.basename(page).startswith("zanj-"):
                continue
            self.assertIn(command, commands, f"{page} documents a command zanj does not have")
            text = render(page)
            self.assertIn(f"zanj {command} ", text.split("DESCRIPTION")[0], f"{page}: SYNOPSIS")
            options = help_options(command)
            self.assertIn("--help", options)
            for option in options - {"--help-all"}:
                documented = re.search(rf"(?m)^\s+.*{re.escape(option)}\b", text)
                self.assertTrue(documented, f"{page} does not document {option}")


if __name__ == "__main__":
    main()
