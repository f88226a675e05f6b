#!/usr/bin/env python3
"""Generate the differential formatting corpus: random but valid HCL configurations with odd
spacing, comments in many positions, heredocs, templates, every expression form, tabs, CRLF and
blank-line runs.

    python3 testdata/fmt/gen_corpus.py OUT_DIR COUNT [SEED]

Writes OUT_DIR/gen_NNN.tf. The expected outputs come from the real terraform binary
(`cargo xtask fmt-oracle`), never from this script.
"""
import random
import sys

IDENTS = ["a", "b", "name", "value", "count", "tags", "ami", "instance_type", "x1", "long_attribute_name",
          "for_each", "depends_on", "my-dashed", "in_x", "_under", "é_accent", "nameé"]
FUNCS = ["length", "concat", "merge", "lookup", "format", "coalesce", "jsonencode", "max", "tolist"]
ROOTS = ["var", "local", "module", "data", "aws_instance", "each", "count", "path", "self"]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.heredocs = 0

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    # Whitespace between tokens on one line.
    def sp(self, comment_ok=True):
        r = self.r.random()
        if comment_ok and r < 0.02:
            return " /* c%d */ " % self.r.randint(0, 9)
        if r < 0.45:
            return ""
        if r < 0.8:
            return " "
        return self.pick(["  ", "\t", "   ", " \t "])

    def sp1(self):
        """At least some whitespace (between words)."""
        return self.pick([" ", " ", " ", "  ", "\t"])

    # Whitespace where a newline is allowed (inside () and []).
    def gap(self, nl_ok):
        if nl_ok and self.chance(0.2):
            s = self.sp(False)
            if self.chance(0.2):
                s += self.pick(["# lc\n", "// lc\n", "/* bc */\n"])
            else:
                s += "\n"
            return s + self.pick(["", "  ", "    ", "\t", " "])
        return self.sp()

    def ident(self):
        return self.pick(IDENTS)

    def number(self):
        return self.pick(["0", "1", "42", "3.14", "1e3", "2.5E-2", "100", "007"])

    def string_lit(self, depth):
        parts = []
        for _ in range(self.r.randint(0, 4)):
            k = self.r.random()
            if k < 0.35:
                parts.append(self.pick(["hello", "a b", " x ", "ünï", "tab\\there", "q\\\"uote",
                                        "back\\\\slash", "\\n", "\\u00e9", "\\U0001F600", "$${not}",
                                        "%%{not}", "$x", "%x", "50% ", "a$b", "{}", "[", "#no", "//no"]))
            elif k < 0.75 and depth < 3:
                parts.append("${" + self.pick(["", "~"]) + self.sp(False) + self.expr(depth + 1, False, simple=True)
                             + self.sp(False) + self.pick(["", "~"]) + "}")
            elif depth < 3:
                parts.append(self.directive(depth))
        return '"' + "".join(parts) + '"'

    def directive(self, depth):
        s = lambda: self.pick(["", " ", "  "])
        t = lambda: self.pick(["", "~"])
        if self.chance(0.5):
            out = "%{" + t() + s() + "if " + self.expr(depth + 1, False, simple=True) + s() + t() + "}x"
            if self.chance(0.5):
                out += "%{" + t() + s() + "else" + s() + t() + "}y"
            return out + "%{" + t() + s() + "endif" + s() + t() + "}"
        return ("%{" + t() + s() + "for " + self.pick(["v", "k, v", "k,v"]) + " in " + self.expr(depth + 1, False, simple=True)
                + s() + t() + "}${v}%{" + t() + s() + "endfor" + s() + t() + "}")

    def heredoc(self, depth):
        marker = self.pick(["EOT", "EOF", "END", "DOC"])
        indented = self.chance(0.5)
        lines = []
        for _ in range(self.r.randint(0, 4)):
            ind = self.pick(["", "  ", "    ", "\t", "      "])
            body = self.pick(["text", "with ${var.x} interp", "${ a + b }", "%{ if c }yes%{ endif }", "",
                              "trailing   ", "$${esc}", "# not a comment", "  {", "}"])
            lines.append(ind + body)
        close_ind = self.pick(["", "  ", "    "]) if indented else ""
        return "<<" + ("-" if indented else "") + marker + "\n" + "".join(l + "\n" for l in lines) + close_ind + marker + "\n"

    def traversal(self, depth, nl_ok):
        out = self.pick(ROOTS)
        splat = legacy = False
        for _ in range(self.r.randint(0, 3)):
            k = self.r.random()
            # Terraform rejects `.0.1` (chained legacy index) and a splat inside `.*`.
            if (legacy and 0.6 <= k < 0.7) or (splat and 0.7 <= k < 0.87):
                k = 0.0
            legacy = 0.6 <= k < 0.7
            splat = splat or 0.7 <= k < 0.87
            if k < 0.45:
                out += "." + self.ident()
            elif k < 0.6:
                # Mostly number/string keys: terraform fmt drops literal true/false/null keys
                # of variable traversals (`x[null]` becomes `x[]`), which a few files keep.
                key = self.expr(depth + 1, nl_ok, simple=True) if self.chance(0.1) else \
                    self.pick(["0", "1", '"k"', "count.index", "each.key"])
                out += self.sp(False) + "[" + self.sp() + key + self.sp() + "]"
            elif k < 0.7:
                out += "." + self.pick(["0", "1", "12"])
            elif k < 0.8:
                out += "[*]" + ("." + self.ident() if self.chance(0.6) else "")
            elif k < 0.87:
                out += ".*" + ("." + self.ident() if self.chance(0.6) else "")
            else:
                out += '["' + self.ident() + '"]'
        return out

    def call(self, depth, nl_ok):
        n = self.r.randint(0, 3)
        args = [self.expr(depth + 1, True) for _ in range(n)]
        inner = ""
        for i, a in enumerate(args):
            inner += self.gap(True) + a + self.sp(False)
            if i < n - 1:
                inner += ","
        if n and self.chance(0.2):
            inner += "..."
        elif n and self.chance(0.15):
            inner += ","
        return self.pick(FUNCS) + "(" + inner + self.gap(True) + ")"

    def tuple(self, depth):
        n = self.r.randint(0, 4)
        multiline = self.chance(0.4)
        items = []
        for _ in range(n):
            items.append(self.expr(depth + 1, True))
        if multiline:
            out = "[\n"
            for i, it in enumerate(items):
                out += self.pick(["", "  ", "    ", "\t"]) + it + self.sp(False)
                if i < n - 1 or self.chance(0.5):
                    out += ","
                if self.chance(0.2):
                    out += self.sp1() + self.pick(["# item", "// item"])
                out += "\n"
                if self.chance(0.1):
                    out += "\n"
            return out + self.pick(["", "  "]) + "]"
        out = "[" + self.sp()
        for i, it in enumerate(items):
            out += it + self.sp(False)
            if i < n - 1:
                out += "," + self.sp()
        if n and self.chance(0.2):
            out += ","
        return out + self.sp() + "]"

    def obj_key(self, depth):
        k = self.r.random()
        if k < 0.6:
            return self.ident()
        if k < 0.85:
            return '"' + self.pick(["quoted", "with space", "x.y", "k"]) + '"'
        return "(" + self.traversal(depth + 1, False) + ")"

    def obj(self, depth):
        n = self.r.randint(0, 4)
        multiline = n > 0 and self.chance(0.6)
        items = [(self.obj_key(depth), self.pick(["=", "=", ":"]), self.expr(depth + 1, False)) for _ in range(n)]
        if multiline:
            out = "{" + self.sp(False) + "\n"
            for k, eq, v in items:
                out += self.pick(["", "  ", "    ", "\t"]) + k + self.sp(False) + eq + self.sp(False) + v
                if self.chance(0.2):
                    out += ","
                if self.chance(0.25):
                    out += self.sp1() + self.pick(["# c", "// c", "/* c */"])
                out += "\n"
                if self.chance(0.15):
                    out += "\n"
            return out + "}"
        out = "{" + self.sp()
        for i, (k, eq, v) in enumerate(items):
            out += k + self.sp(False) + eq + self.sp(False) + v
            if i < n - 1:
                out += "," + self.sp()
        return out + self.sp() + "}"

    def for_expr(self, depth):
        head = "for" + self.sp1() + self.pick(["v", "k, v", "k,v", "i ,v"]) + self.sp1() + "in" + self.sp1() + \
            self.pick([self.traversal(depth + 1, False), "[1, 2]", "{a = 1}", "range(3)"]) + self.sp(False) + ":" + self.sp(False)
        cond = ""
        if self.chance(0.4):
            cond = self.sp1() + "if" + self.sp1() + self.expr(depth + 1, False, simple=True)
        if self.chance(0.5):
            return "[" + self.sp() + head + self.expr(depth + 1, False, simple=True) + cond + self.sp() + "]"
        group = "..." if self.chance(0.3) else ""
        return "{" + self.sp() + head + self.expr(depth + 1, False, simple=True) + self.sp(False) + "=>" + \
            self.sp(False) + self.expr(depth + 1, False, simple=True) + group + cond + self.sp() + "}"

    def term(self, depth, nl_ok, simple=False):
        k = self.r.random()
        if depth > 3 or k < 0.12:
            return self.pick([self.number(), "true", "false", "null"])
        if k < 0.3:
            return self.string_lit(depth)
        if k < 0.5:
            return self.traversal(depth, nl_ok)
        if k < 0.58:
            return self.call(depth, nl_ok)
        if simple:
            return "(" + self.sp() + self.expr(depth + 1, True) + self.sp() + ")"
        if k < 0.68:
            return self.tuple(depth)
        if k < 0.78:
            return self.obj(depth)
        if k < 0.86:
            return self.for_expr(depth)
        if k < 0.9 and nl_ok is not None:
            return "(" + self.gap(True) + self.expr(depth + 1, True) + self.gap(True) + ")"
        return '"${' + self.sp(False) + self.traversal(depth + 1, False) + self.sp(False) + '}"'

    def expr(self, depth, nl_ok, simple=False):
        k = self.r.random()
        if depth < 3 and k < 0.15:
            op = self.pick(["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"])
            # A `-` straight after a name would be part of the name (`a-b` is one identifier).
            before = self.sp1() if op == "-" else self.sp()
            return self.term(depth + 1, nl_ok, True) + before + op + self.sp() + self.term(depth + 1, nl_ok, True)
        if depth < 3 and k < 0.22:
            return self.pick(["!", "-", "- ", "! "]) + self.term(depth + 1, nl_ok, True)
        if depth < 3 and k < 0.28:
            return (self.term(depth + 1, nl_ok, True) + self.sp() + "?" + self.sp() + self.term(depth + 1, nl_ok, True)
                    + self.sp() + ":" + self.sp() + self.term(depth + 1, nl_ok, True))
        return self.term(depth, nl_ok, simple)

    # ---- bodies ----
    def indent(self, level):
        if self.chance(0.7):
            return "  " * level
        return self.pick(["", " ", "\t", "   ", "  " * (level + 1)])

    def attribute(self, level, name=None, heredoc_ok=True, comment_ok=True):
        name = name or self.ident()
        if heredoc_ok and self.chance(0.08):
            value = self.heredoc(0)
            return self.indent(level) + name + self.sp(False) + "=" + self.sp(False) + value, True
        value = self.expr(0, False)
        line = self.indent(level) + name + self.sp(False) + "=" + self.sp(False) + value
        if comment_ok and self.chance(0.2):
            line += self.sp1() + self.pick(["# trailing", "// trailing", "/* trailing */", "#", "# longer trailing comment"])
        return line, False

    def label(self):
        if self.chance(0.75):
            return '"' + self.pick(["aws_instance", "web", "x", "my label", "a\\\"q", "ünï", "e\\u00e9", "", "a-b"]) + '"'
        return self.pick(["bare", "aws_s3_bucket", "x-y"])

    def block(self, level, depth):
        ty = self.pick(["resource", "data", "provider", "module", "locals", "variable", "output", "dynamic",
                        "lifecycle", "ingress", "content", "terraform", "nested"])
        nlabels = {"resource": 2, "data": 2, "provider": 1, "module": 1, "variable": 1, "output": 1,
                   "dynamic": 1}.get(ty, self.r.randint(0, 2))
        head = self.indent(level) + ty
        for _ in range(nlabels):
            head += self.sp1() + self.label()
        if self.chance(0.1):
            head += self.sp1() + "/* hdr */"
        head += self.sp(False) + "{"
        if self.chance(0.15):
            # empty or one-line block
            if self.chance(0.5):
                return head + self.pick(["", " ", "  "]) + "}"
            a, _ = self.attribute(0, heredoc_ok=False, comment_ok=False)
            return head + self.sp1() + a.strip(" \t") + self.sp1() + "}"
        if ty == "variable" and level == 0:
            body = self.variable_body(level + 1)
        else:
            body = self.body(level + 1, depth + 1, self.r.randint(0, 5))
        return head + self.sp(False) + "\n" + body + self.indent(level) + "}"

    def variable_body(self, level):
        out = ""
        if self.chance(0.8):
            t = self.pick(['"string"', '"list"', '"map"', "list", "map", "set", "string", "number", "list(string)",
                           "map(any)", "object({ a = string })", '"${string}"', "bool", '"number"'])
            out += self.indent(level) + "type" + self.sp(False) + "=" + self.sp(False) + t + "\n"
        if self.chance(0.6):
            out += self.indent(level) + "default" + self.sp(False) + "=" + self.sp(False) + self.expr(1, False) + "\n"
        if self.chance(0.5):
            out += self.indent(level) + "description = " + self.string_lit(3) + "\n"
        return out

    def body(self, level, depth, n):
        out = ""
        used = set()
        for _ in range(n):
            k = self.r.random()
            if k < 0.08:
                out += self.indent(level) + self.pick(["# comment", "// comment", "/* block */", "/* multi\n   line */",
                                                        "#", "#   spaced"]) + "\n"
            elif k < 0.15:
                out += "\n" * self.r.randint(1, 3)
            elif k < 0.3 and depth < 3:
                out += self.block(level, depth) + "\n"
            else:
                name = self.ident()
                while name in used:
                    name = self.ident() + str(self.r.randint(0, 99))
                used.add(name)
                line, _ = self.attribute(level, name)
                out += line + ("" if line.endswith("\n") else "\n")
        return out

    def file(self):
        out = self.body(0, 0, self.r.randint(2, 9))
        r = self.r.random()
        if r < 0.08:
            out = out.replace("\n", "\r\n")
        elif r < 0.12 and "<<" not in out:
            out = out.rstrip("\n")
        elif r < 0.15:
            out += "\n\n"
        return out


def main():
    out_dir = sys.argv[1]
    count = int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    for i in range(count):
        g = Gen(seed * 100003 + i)
        text = g.file()
        with open("%s/gen_%03d.tf" % (out_dir, i), "w", newline="") as f:
            f.write(text)


if __name__ == "__main__":
    main()
