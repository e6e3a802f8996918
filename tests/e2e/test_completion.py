"""End-to-end: the shell completions in completions/ and `zanj --complete`, which answers them.
bash is driven for real (bash-completion sourced, `_zanj` called as readline would call it);
fish too when installed (`complete -C`); zsh is syntax-checked when installed. The scripts hold
no command or option names: everything they offer comes from the binary."""
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import unittest
import zipfile

from common import SOURCE_DIR, ZANJ, ZanjTest, corpus, main, run

COMPLETIONS = os.path.join(SOURCE_DIR, "completions")
BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"
WORD_BREAKS = ":="  # the characters of bash's COMP_WORDBREAKS that can occur in our words


def env_with_zanj():
    """PATH starting with the directory of the zanj under test, so `zanj` is that one."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(os.path.abspath(ZANJ)) + os.pathsep + env.get("PATH", "")
    return env


def comp_words(line):
    """Split a command line into COMP_WORDS as bash does: at unquoted blanks, and with runs of
    word-break characters (':' '=') as words of their own; a trailing blank starts an empty word."""
    words, word, quote, i = [], "", None, 0
    def flush():
        nonlocal word
        if word:
            words.append(word)
        word = ""
    while i < len(line):
        c = line[i]
        if quote:
            word += c
            if c == quote:
                quote = None
        elif c == "\\" and i + 1 < len(line):
            word += line[i:i + 2]
            i += 1
        elif c in "'\"":
            quote = c
            word += c
        elif c == " ":
            flush()
        elif c in WORD_BREAKS:
            flush()
            while i < len(line) and line[i] in WORD_BREAKS:
                word += line[i]
                i += 1
            flush()
            continue
        else:
            word += c
        i += 1
    flush()
    if line.endswith(" ") or (line and line[-1] in WORD_BREAKS):
        words.append("")
    return words


def help_commands():
    listed = run("--help").text.split("Subcommands:", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in listed.splitlines() if line.strip()]


def help_options(*command):
    """Option names under "Options:" in `zanj [COMMAND] --help` (-x and --long)."""
    options, in_options = set(), False
    for line in run(*command, "--help").text.splitlines():
        if line.strip().endswith(":") and not line.startswith(" "):
            in_options = line.startswith("Options")
            continue
        m = re.match(r"^\s+(-\S+)", line)
        if in_options and m:
            options.update(re.sub(r"\{.*\}$", "", name) for name in m.group(1).split(","))
    return options


def write_archive(path, root):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("__zanj_meta__.json", '{"externals_info": {}}')
        z.writestr("__zanj__.json", json.dumps(root))


# Keys that need care: spaces, a colon (a bash word break), escaping (~ and /), and one that
# would run a command if a completion ever evaluated what it read from the archive.
AWKWARD = {"my key": {"inner": 1, "other": 2}, "a:b": 2, "x/y": {"z~w": 1},
           "nested": {"deeper": {"matrix": 1}, "dx": 3}, "k$(touch pwned)": 1, "`touch pwned2`": 1}


class Protocol(ZanjTest):
    """`zanj --complete WORD...`: a directive line, then the candidates."""

    def answer(self, *words):
        result = run("--complete", *words)
        self.assertEqual((result.code, result.err), (0, ""))
        directive, *candidates = result.text.split("\n")[:-1]
        return directive, [c.split("\t")[0] for c in candidates]

    def test_commands_options_and_values(self):
        self.assertEqual(self.answer("l"), ("words", ["ls"]))
        self.assertEqual(self.answer(""), ("words", help_commands()))
        directive, options = self.answer("ls", "--")
        self.assertEqual(directive, "words")
        self.assertEqual({o for o in options}, {o for o in help_options("ls") | help_options() if o.startswith("--")})
        self.assertEqual(self.answer("--color", ""), ("words", ["auto", "always", "never"]))
        self.assertEqual(self.answer("cat", "--format=j"), ("words", ["--format=json", "--format=jsonl"]))
        self.assertEqual(self.answer("extract", "-C", "")[0], "dirs")
        self.assertEqual(self.answer("pack", "-o", "")[0], "archives")
        self.assertEqual(self.answer("pack", "")[0], "files")
        self.assertEqual(self.answer("info", "")[0], "archives")
        self.assertEqual(self.answer("ls", "-d", "")[0], "words")  # a number: nothing to offer

    def test_descriptions_come_with_options_and_commands(self):
        lines = run("--complete", "ls", "--j").text.split("\n")
        self.assertEqual(lines[1].split("\t")[0], "--json")
        self.assertEqual(lines[1].split("\t")[1], "Machine-readable output")

    def test_object_paths_one_level_at_a_time(self):
        basic = corpus("basic.zanj")
        top = [p for p in run("ls", "-1", basic).text.splitlines() if p and "/" not in p]
        directive, got = self.answer("ls", basic, "")
        self.assertEqual(directive, "paths")
        self.assertEqual(sorted(g.rstrip("/") for g in got), sorted(top))
        self.assertIn("nested/", got)
        self.assertEqual(self.answer("cat", "--head", "2", basic, "nested/deeper/"),
                         ("paths", ["nested/deeper/matrix", "nested/deeper/word"]))
        self.assertEqual(self.answer("extract", basic, "big_array", "nes"), ("paths", ["nested/"]))
        self.assertEqual(self.answer("ls", "/nonexistent.zanj", ""), ("paths", []))
        self.assertEqual(self.answer("ls", "-", ""), ("paths", []))  # never reads standard input

    def test_scripts_name_no_command_or_option(self):
        names = set(help_commands()) | {o for c in help_commands() for o in help_options(c) if len(o) > 3}
        for script in os.listdir(COMPLETIONS):
            with open(os.path.join(COMPLETIONS, script)) as f:
                code = "\n".join(line.split("#")[0] for line in f.read().splitlines())
            words = set(re.findall(r"[-\w]+", code))
            # "set" is also fish's own command for variables
            self.assertFalse(words & (names - {"ls", "info", "cat", "set"}) - {"--complete"}, script)


class Bash(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.awkward = os.path.join(cls.tmp.name, "awkward.zanj")
        write_archive(cls.awkward, AWKWARD)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def complete(self, line, cwd=None):
        """The candidates `_zanj` offers for the word at the end of `line`, and the compopt
        options it set."""
        self.assertTrue(os.path.exists(BASH_COMPLETION), "bash-completion is not installed (scripts/install-deps --test)")
        words = comp_words(line)
        script = "\n".join([
            f"source {shlex.quote(BASH_COMPLETION)}",
            f"source {shlex.quote(os.path.join(COMPLETIONS, 'zanj.bash'))}",
            'compopt() { local IFS=" "; COMPOPT+=" $*"; }  # outside readline: record what was asked',
            f"COMP_LINE={shlex.quote(line)}; COMP_POINT=${{#COMP_LINE}}",
            f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); COMP_CWORD={len(words) - 1}",
            "COMPREPLY=(); COMPOPT=''",
            '_zanj zanj "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"',
            'printf "%s\\n" "${COMPREPLY[@]}"',
            'printf "@@compopt:%s\\n" "$COMPOPT"',
        ])
        p = subprocess.run(["bash", "-c", script], capture_output=True, env=env_with_zanj(), cwd=cwd or self.tmp.name,
                           timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, b"")
        *candidates, options = p.stdout.decode().split("\n")[:-1]
        return [c for c in candidates if c], options[len("@@compopt:"):].split()

    def test_every_command(self):
        commands = help_commands()
        self.assertGreaterEqual(set(commands), {"info", "ls"})
        got, _ = self.complete("zanj ")
        self.assertGreaterEqual(set(got), set(commands))
        self.assertEqual(self.complete("zanj l")[0], ["ls"])
        self.assertEqual(self.complete("zanj -q --color never i")[0], ["info"])

    def test_global_options(self):
        got, _ = self.complete("zanj -")
        self.assertEqual(set(got), help_options())
        self.assertEqual(self.complete("zanj --color ")[0], ["auto", "always", "never"])
        self.assertEqual(self.complete("zanj --color=a")[0], ["auto", "always"])
        self.assertEqual(self.complete("zanj --progress=n")[0], ["never"])
        self.assertEqual(self.complete("zanj --progress never v")[0], ["verify"])

    def test_options_of_info_and_ls(self):
        for command in ("info", "ls", "cat"):
            got, _ = self.complete(f"zanj {command} -")
            self.assertGreaterEqual(set(got), help_options(command) | help_options(), command)
        self.assertEqual(self.complete("zanj ls --j")[0], ["--json"])
        self.assertEqual(self.complete("zanj info --no")[0], ["--no-members"])

    def test_cat_formats_and_paths_after_its_options(self):
        self.assertEqual(self.complete("zanj cat --format j")[0], ["json", "jsonl"])
        self.assertEqual(sorted(self.complete("zanj cat -f ")[0]), ["csv", "json", "jsonl", "npy", "raw", "text"])
        basic = corpus("basic.zanj")
        self.assertEqual(self.complete(f"zanj cat -f raw --head 2 {basic} big")[0], ["big_array"])
        self.assertEqual(self.complete(f"zanj cat --tail 1 {basic} nested/deeper/m")[0], ["nested/deeper/matrix"])

    def test_archive_files(self):
        got, _ = self.complete("zanj info b", cwd=corpus())
        self.assertEqual(got, ["basic.zanj"])  # not basic.facts.json
        got, _ = self.complete("zanj ls -l ", cwd=corpus())
        self.assertIn("model.zanj", got)
        self.assertIn("malformed", got)  # directories, to reach archives in them
        self.assertFalse([g for g in got if g.endswith(".json")], got)

    def test_object_paths_of_the_archive(self):
        basic = corpus("basic.zanj")
        top = [p for p in run("ls", "-1", basic).text.splitlines() if p and "/" not in p]
        got, options = self.complete(f"zanj ls {basic} ")
        self.assertEqual(sorted(got), sorted(top))
        self.assertIn("filenames", options)  # readline quotes what needs quoting
        got, options = self.complete(f"zanj ls {basic} nested/")
        self.assertEqual(got, ["nested/deeper"])
        self.assertIn("nospace", options)  # a node with children: type / to go on
        got, options = self.complete(f"zanj ls {basic} nested/deeper/")
        self.assertEqual(sorted(got), ["nested/deeper/matrix", "nested/deeper/word"])
        self.assertNotIn("nospace", options)
        # after options and global options, in any order
        self.assertEqual(self.complete(f"zanj -q ls -d 1 --glob '*' {basic} big")[0], ["big_array"])
        self.assertEqual(self.complete(f"zanj ls {basic} --color=never nested/deeper/m")[0], ["nested/deeper/matrix"])

    def test_awkward_keys(self):
        got, _ = self.complete(f"zanj ls {self.awkward} ")
        self.assertEqual(sorted(got), sorted(["my key", "a:b", "x~1y", "nested", "k$(touch pwned)", "`touch pwned2`"]))
        self.assertEqual(self.complete(f"zanj ls {self.awkward} my\\ k")[0], ["my key"])
        self.assertEqual(sorted(self.complete(f"zanj ls {self.awkward} 'my key/")[0]), ["my key/inner", "my key/other"])
        self.assertEqual(self.complete(f"zanj ls {self.awkward} \"my key/i")[0], ["my key/inner"])
        # bash replaces only the text after the colon: the candidate must not repeat "a:"
        self.assertEqual(self.complete(f"zanj ls {self.awkward} a:")[0], ["b"])
        self.assertEqual(self.complete(f"zanj ls {self.awkward} x~1y/")[0], ["x~1y/z~0w"])
        self.assertEqual(os.listdir(self.tmp.name), ["awkward.zanj"])  # nothing was run

    def test_archive_name_with_a_space(self):
        spaced = os.path.join(self.tmp.name, "with space.zanj")
        shutil.copy(corpus("basic.zanj"), spaced)
        try:
            got, _ = self.complete(f"zanj ls {shlex.quote(spaced)} nested/")
            self.assertEqual(got, ["nested/deeper"])
            got, _ = self.complete("zanj ls " + spaced.replace(" ", "\\ ") + " nested/")
            self.assertEqual(got, ["nested/deeper"])
        finally:
            os.remove(spaced)

    def test_no_paths_without_a_readable_archive(self):
        self.assertEqual(self.complete("zanj ls /nonexistent.zanj ")[0], [])
        self.assertEqual(self.complete(f"zanj ls {corpus('malformed', 'truncated.zanj')} ")[0], [])


@unittest.skipUnless(shutil.which("fish"), "fish is not installed")
class Fish(ZanjTest):
    def complete(self, line, cwd=None):
        script = f"source {shlex.quote(os.path.join(COMPLETIONS, 'zanj.fish'))}; complete -C {shlex.quote(line)}"
        p = subprocess.run(["fish", "--no-config", "-c", script], capture_output=True, env=env_with_zanj(),
                           cwd=cwd, timeout=60)
        self.assertEqual((p.returncode, p.stderr), (0, b""))
        return [c.split("\t")[0] for c in p.stdout.decode().splitlines()]

    def test_syntax(self):
        p = subprocess.run(["fish", "--no-execute", os.path.join(COMPLETIONS, "zanj.fish")], capture_output=True)
        self.assertEqual((p.returncode, p.stderr), (0, b""))

    def test_commands_and_options(self):
        self.assertGreaterEqual(set(self.complete("zanj ")), set(help_commands()))
        for command in ("info", "ls", "cat"):
            got = set(self.complete(f"zanj {command} -"))
            self.assertGreaterEqual(got, {o for o in help_options(command) | help_options() if o.startswith("-")})
        self.assertEqual(sorted(self.complete("zanj --color ")), ["always", "auto", "never"])
        self.assertEqual(sorted(self.complete("zanj --progress ")), ["always", "auto", "never"])

    def test_archives_first(self):
        got = self.complete("zanj info b", cwd=corpus())
        self.assertEqual(got[0], "basic.zanj")

    def test_object_paths(self):
        basic = corpus("basic.zanj")
        top = [p for p in run("ls", "-1", basic).text.splitlines() if p and "/" not in p]
        got = self.complete(f"zanj ls {basic} ")
        self.assertEqual(sorted(g for g in got if not g.endswith("/")), sorted(top))
        self.assertIn("nested/", got)  # a node with children: offered to go on
        self.assertEqual(sorted(self.complete(f"zanj ls -d 2 {basic} nested/deeper/")),
                         ["nested/deeper/matrix", "nested/deeper/word"])
        self.assertEqual(self.complete(f"zanj cat -f json --head 3 {basic} big"), ["big_array"])
        self.assertEqual(sorted(self.complete("zanj cat --format j")), ["json", "jsonl"])
        with tempfile.TemporaryDirectory() as tmp:
            awkward = os.path.join(tmp, "awkward.zanj")
            write_archive(awkward, AWKWARD)
            self.assertEqual(sorted(self.complete(f"zanj ls {awkward} my\\ key/")), ["my key/inner", "my key/other"])
            self.assertIn("k$(touch pwned)", self.complete(f"zanj ls {awkward} k"))
            self.assertEqual(os.listdir(tmp), ["awkward.zanj"])


@unittest.skipUnless(shutil.which("zsh"), "zsh is not installed")
class Zsh(ZanjTest):
    def test_syntax(self):
        p = subprocess.run(["zsh", "-n", os.path.join(COMPLETIONS, "_zanj")], capture_output=True)
        self.assertEqual((p.returncode, p.stderr), (0, b""))

    def typed(self, keys):
        """The command line zsh has after `keys` are typed into an interactive zsh (driven
        through its zpty module, which gives it a terminal), with _zanj loaded by compinit."""
        script = "\n".join([
            "zmodload zsh/zpty",
            "zpty z zsh -f -i",
            f"zpty -w z {shlex.quote(f'PS1=; fpath=({COMPLETIONS} $fpath); autoload -U compinit; compinit -u -D; cd {corpus()}')}",
            "sleep 1",
            f"zpty -w -n z {keys}",
            "sleep 2",
            "zpty -w -n z $'\\C-a'\"echo ARGS \"$'\\n'",  # the line as typed, echoed
            "sleep 1",
            "all=''; while zpty -r -t z chunk 2>/dev/null; do all+=$chunk; done",
            "print -r -- $all",
            "zpty -d z",
        ])
        p = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, env=env_with_zanj(), timeout=60)
        lines = [line for line in p.stdout.decode(errors="replace").replace("\r", "\n").splitlines()
                 if line.startswith("ARGS ")]
        self.assertTrue(lines, p.stdout[-2000:])
        return lines[-1][len("ARGS "):].strip()

    def test_completes_through_the_binary(self):
        self.assertEqual(self.typed("'zanj ls --js'$'\\t'"), "zanj ls --json")
        self.assertEqual(self.typed("'zanj info ba'$'\\t'"), "zanj info basic.zanj")
        # an object path, one level per tab: the '/' after a node with children is kept when
        # typing goes on, and removed at the end of the word
        self.assertEqual(self.typed("'zanj ls basic.zanj nes'$'\\t'; sleep 1; zpty -w -n z $'\\t'"),
                         "zanj ls basic.zanj nested/deeper")

    def test_loads_as_a_completion_function(self):
        # compinit finds _zanj on fpath from its #compdef line and binds it to zanj
        script = (f"fpath=({shlex.quote(COMPLETIONS)} $fpath); autoload -U compinit; compinit -u -D; "
                  "print -r -- $_comps[zanj]")
        p = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, timeout=60)
        self.assertEqual((p.returncode, p.stdout.decode().strip()), (0, "_zanj"), p.stderr)


if __name__ == "__main__":
    main()
