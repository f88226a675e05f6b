//! Generated edge cases for the console corpus: every Terraform 1.0.3 function called with a
//! valid baseline, then with each parameter in turn replaced by null, an unknown value, values of
//! each wrong type, empty collections, and negative, fractional and huge numbers.
//!
//! `cargo xtask console-oracle` records these after the hand-written `exprs.txt`.

/// A function and a valid call's arguments (variadic functions list a typical number of them).
struct Sig {
    name: &'static str,
    args: &'static [&'static str],
}

const fn sig(name: &'static str, args: &'static [&'static str]) -> Sig {
    Sig { name, args }
}

/// Functions whose results depend on time, randomness, the host or the working directory are
/// left out (`timestamp`, `uuid`, `bcrypt`, `abspath`, `pathexpand`, `path.cwd`-like results).
const SIGS: &[Sig] = &[
    // numeric
    sig("abs", &["-3"]),
    sig("ceil", &["1.2"]),
    sig("floor", &["1.8"]),
    sig("log", &["16", "2"]),
    sig("max", &["1", "5", "3"]),
    sig("min", &["4", "2", "8"]),
    sig("parseint", &["\"ff\"", "16"]),
    sig("pow", &["2", "8"]),
    sig("signum", &["-7"]),
    // string
    sig("chomp", &["\"a\\n\""]),
    sig("format", &["\"%s-%d\"", "\"a\"", "1"]),
    sig("formatlist", &["\"%s=%s\"", "[\"a\", \"b\"]", "\"x\""]),
    sig("indent", &["2", "\"a\\nb\""]),
    sig("join", &["\",\"", "[\"a\", \"b\"]"]),
    sig("lower", &["\"AbC\""]),
    sig("regex", &["\"[a-z]+\"", "\"123abc\""]),
    sig("regexall", &["\"[a-z]+\"", "\"ab 12 cd\""]),
    sig("replace", &["\"hello\"", "\"l\"", "\"L\""]),
    sig("split", &["\",\"", "\"a,b,c\""]),
    sig("strrev", &["\"abc\""]),
    sig("substr", &["\"hello\"", "1", "3"]),
    sig("title", &["\"hello world\""]),
    sig("trim", &["\"?!hi?!\"", "\"!?\""]),
    sig("trimprefix", &["\"hello\"", "\"he\""]),
    sig("trimsuffix", &["\"hello\"", "\"lo\""]),
    sig("trimspace", &["\"  hi  \""]),
    sig("upper", &["\"abc\""]),
    // collections
    sig("alltrue", &["[true, true]"]),
    sig("anytrue", &["[false, true]"]),
    sig("chunklist", &["[1, 2, 3]", "2"]),
    sig("coalesce", &["\"\"", "\"b\""]),
    sig("coalescelist", &["[]", "[1, 2]"]),
    sig("compact", &["[\"a\", \"\", \"b\"]"]),
    sig("concat", &["[1]", "[2, 3]"]),
    sig("contains", &["[\"a\", \"b\"]", "\"b\""]),
    sig("distinct", &["[1, 2, 1]"]),
    sig("element", &["[\"a\", \"b\"]", "3"]),
    sig("flatten", &["[[1], [2, [3]]]"]),
    sig("index", &["[\"a\", \"b\"]", "\"b\""]),
    sig("keys", &["{ b = 1, a = 2 }"]),
    sig("length", &["[1, 2]"]),
    sig("lookup", &["{ a = \"x\" }", "\"a\"", "\"d\""]),
    sig(
        "matchkeys",
        &["[\"i1\", \"i2\"]", "[\"z1\", \"z2\"]", "[\"z2\"]"],
    ),
    sig("merge", &["{ a = 1 }", "{ b = 2 }"]),
    sig("one", &["[\"x\"]"]),
    sig("range", &["1", "10", "3"]),
    sig("reverse", &["[1, 2, 3]"]),
    sig("setintersection", &["[\"a\", \"b\"]", "[\"b\", \"c\"]"]),
    sig("setproduct", &["[\"a\", \"b\"]", "[1, 2]"]),
    sig("setsubtract", &["[\"a\", \"b\"]", "[\"b\"]"]),
    sig("setunion", &["[\"a\"]", "[\"b\"]"]),
    sig("slice", &["[\"a\", \"b\", \"c\"]", "1", "3"]),
    sig("sort", &["[\"b\", \"a\"]"]),
    sig("sum", &["[1, 2.5]"]),
    sig("transpose", &["{ a = [\"1\", \"2\"], b = [\"2\"] }"]),
    sig("values", &["{ b = 1, a = 2 }"]),
    sig("zipmap", &["[\"a\", \"b\"]", "[1, 2]"]),
    // encoding
    sig("base64decode", &["\"aGVsbG8=\""]),
    sig("base64encode", &["\"hello\""]),
    sig("base64gzip", &["\"hello\""]),
    sig("csvdecode", &["\"a,b\\n1,2\\n\""]),
    sig("jsondecode", &["\"{\\\"a\\\": [1, true, null]}\""]),
    sig("jsonencode", &["{ a = [1, true, null] }"]),
    sig("textdecodebase64", &["\"SABpAA==\"", "\"UTF-16LE\""]),
    sig("textencodebase64", &["\"Hi\"", "\"UTF-16LE\""]),
    sig("urlencode", &["\"a b/c?d\""]),
    sig("yamldecode", &["\"a: [1, x, true]\""]),
    sig("yamlencode", &["{ a = [1, \"x\", true] }"]),
    // filesystem
    sig("basename", &["\"a/b/c.txt\""]),
    sig("dirname", &["\"a/b/c.txt\""]),
    sig("file", &["\"hello.txt\""]),
    sig("filebase64", &["\"hello.txt\""]),
    sig("fileexists", &["\"hello.txt\""]),
    sig("fileset", &["\".\"", "\"*.txt\""]),
    sig("filemd5", &["\"hello.txt\""]),
    sig("filesha1", &["\"hello.txt\""]),
    sig("filesha256", &["\"hello.txt\""]),
    sig("filesha512", &["\"hello.txt\""]),
    sig("filebase64sha256", &["\"hello.txt\""]),
    sig("filebase64sha512", &["\"hello.txt\""]),
    sig("templatefile", &["\"greeting.tmpl\"", "{ name = \"x\" }"]),
    // date and time
    sig(
        "formatdate",
        &["\"YYYY-MM-DD hh:mm\"", "\"2021-02-03T04:05:06Z\""],
    ),
    sig("timeadd", &["\"2021-02-03T04:05:06Z\"", "\"1h30m\""]),
    // hash and crypto
    sig("base64sha256", &["\"hello\""]),
    sig("base64sha512", &["\"hello\""]),
    sig("md5", &["\"hello\""]),
    sig("sha1", &["\"hello\""]),
    sig("sha256", &["\"hello\""]),
    sig("sha512", &["\"hello\""]),
    sig("uuidv5", &["\"dns\"", "\"example.com\""]),
    // IP network
    sig("cidrhost", &["\"10.0.0.0/8\"", "5"]),
    sig("cidrnetmask", &["\"10.0.0.0/12\""]),
    sig("cidrsubnet", &["\"10.0.0.0/8\"", "8", "2"]),
    sig("cidrsubnets", &["\"10.0.0.0/8\"", "4", "8"]),
    // type conversion
    sig("tobool", &["\"true\""]),
    sig("tolist", &["[\"a\", 1]"]),
    sig("tomap", &["{ a = 1, b = \"x\" }"]),
    sig("tonumber", &["\"1.5\""]),
    sig("toset", &["[\"b\", \"a\", \"b\"]"]),
    sig("tostring", &["1.5"]),
    sig("sensitive", &["\"x\""]),
    sig("nonsensitive", &["var.secret"]),
    sig("coalesce", &["null", "1"]),
];

/// Replacement arguments: null, unknown, each type, empty collections and awkward numbers.
const SUBSTITUTES: &[&str] = &[
    "null",
    "local.id",
    "\"x\"",
    "\"\"",
    "0",
    "-1",
    "2.5",
    "1e20",
    "true",
    "[]",
    "{}",
    "[1, \"a\"]",
    "tolist([])",
    "-0",
    "1e300",
    "\"-1\"",
    "[null]",
    "{ a = 1 }",
];

/// The generated expressions, in a stable order and without duplicates.
pub fn exprs() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut push = |e: String, out: &mut Vec<String>| {
        if seen.insert(e.clone()) {
            out.push(e);
        }
    };
    for s in SIGS {
        push(call(s.name, s.args.iter().copied()), &mut out);
        push(format!("{}()", s.name), &mut out);
        for i in 0..s.args.len() {
            for sub in SUBSTITUTES {
                let args = s
                    .args
                    .iter()
                    .enumerate()
                    .map(|(j, a)| if i == j { *sub } else { *a });
                push(call(s.name, args), &mut out);
            }
        }
        // One argument too many.
        let extra = s.args.iter().copied().chain(std::iter::once("1"));
        push(call(s.name, extra), &mut out);
    }
    out
}

fn call<'a>(name: &str, args: impl Iterator<Item = &'a str>) -> String {
    format!("{name}({})", args.collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
mod tests {
    #[test]
    fn generates_a_large_stable_corpus() {
        let a = super::exprs();
        assert!(a.len() > 1500, "{}", a.len());
        assert_eq!(a, super::exprs());
        assert!(a.contains(&"sum([1, \"a\"])".to_string()));
        assert!(a.contains(&"range(-1, 10, 3)".to_string()));
    }
}
