//! One-line descriptions of the built-in functions for hover, completion and signature help
//! (their parameters and types come from ferro-eval's registry).

/// What a built-in function does, in a sentence.
pub fn description(name: &str) -> &'static str {
    match name {
        "abs" => "Returns the absolute value of a number.",
        "ceil" => "Returns the closest whole number greater than or equal to the given number.",
        "floor" => "Returns the closest whole number less than or equal to the given number.",
        "log" => "Returns the logarithm of a number in the given base.",
        "max" => "Returns the greatest of the given numbers.",
        "min" => "Returns the smallest of the given numbers.",
        "parseint" => "Parses a string as an integer in the given base (2 to 62).",
        "pow" => "Raises a number to the given power.",
        "signum" => "Returns -1, 0 or 1 for a negative, zero or positive number.",
        "chomp" => "Removes newline characters at the end of a string.",
        "format" => "Produces a string by formatting values according to a printf-style specification.",
        "formatlist" => "Formats each element of lists (or repeated values) into a list of strings.",
        "indent" => "Adds the given number of spaces before every line but the first of a string.",
        "join" => "Concatenates the elements of lists of strings, with a separator between them.",
        "lower" => "Converts every letter of a string to lowercase.",
        "regex" => "Returns the first match of a regular expression in a string (captures as a list or map).",
        "regexall" => "Returns every match of a regular expression in a string.",
        "replace" => "Replaces each occurrence of a substring (or a /regular expression/) with another string.",
        "split" => "Splits a string into a list at each occurrence of a separator.",
        "strrev" => "Reverses the characters of a string.",
        "substr" => "Extracts a substring by offset and length (in characters).",
        "title" => "Converts the first letter of each word to uppercase.",
        "trim" => "Removes the given characters from both ends of a string.",
        "trimprefix" => "Removes a prefix from a string when it starts with it.",
        "trimsuffix" => "Removes a suffix from a string when it ends with it.",
        "trimspace" => "Removes whitespace from both ends of a string.",
        "upper" => "Converts every letter of a string to uppercase.",
        "alltrue" => "Returns true when every element of a collection is true (or it is empty).",
        "anytrue" => "Returns true when at least one element of a collection is true.",
        "chunklist" => "Splits a list into lists of at most the given size.",
        "coalesce" => "Returns the first argument that is not null or an empty string.",
        "coalescelist" => "Returns the first of its list arguments that is not empty.",
        "compact" => "Removes null and empty string elements from a list of strings.",
        "concat" => "Joins lists into one list.",
        "contains" => "Tells whether a list or set contains a value.",
        "distinct" => "Removes duplicate elements from a list, keeping the first of each.",
        "element" => "Returns the element at an index of a list, wrapping around its length.",
        "flatten" => "Replaces nested lists in a list with their elements, recursively.",
        "index" => "Returns the index of the first element of a list equal to a value.",
        "keys" => "Returns the keys of a map or object, sorted.",
        "length" => "Returns the number of elements of a collection or characters of a string.",
        "list" => "Removed in Terraform 0.15: use tolist or a tuple expression [ ... ].",
        "lookup" => "Returns a map's value for a key, or the default when the key is absent.",
        "map" => "Removed in Terraform 0.15: use tomap or an object expression { ... }.",
        "matchkeys" => "Returns the elements of a list whose corresponding keys are in a search set.",
        "merge" => "Merges maps or objects; later arguments win for keys that repeat.",
        "one" => "Returns the only element of a list or set, null when it is empty, an error when it has more.",
        "range" => "Produces a list of numbers from a start, limit and step.",
        "reverse" => "Reverses the order of a sequence.",
        "setintersection" => "Returns the elements every given set has.",
        "setproduct" => "Returns every combination of one element from each given set or list.",
        "setsubtract" => "Returns the elements of the first set that the second does not have.",
        "setunion" => "Returns the elements any of the given sets has.",
        "slice" => "Returns the elements of a list from a start index up to (not including) an end index.",
        "sort" => "Sorts a list of strings lexicographically.",
        "sum" => "Returns the sum of a list or set of numbers.",
        "transpose" => "Swaps the keys and values of a map of lists of strings.",
        "values" => "Returns the values of a map or object, in key order.",
        "zipmap" => "Builds a map from a list of keys and a list of values.",
        "base64decode" => "Decodes a Base64 string holding UTF-8 text.",
        "base64encode" => "Encodes a string's UTF-8 bytes in Base64.",
        "base64gzip" => "Compresses a string with gzip and encodes the result in Base64.",
        "base64gunzip" => "Decodes a Base64 string and decompresses the result with gzip.",
        "csvdecode" => "Decodes CSV text (with a header line) into a list of maps.",
        "jsondecode" => "Decodes a JSON string into a value.",
        "jsonencode" => "Encodes a value as JSON.",
        "textdecodebase64" => "Decodes Base64 text in the given character encoding.",
        "textencodebase64" => "Encodes a string in the given character encoding, then in Base64.",
        "urlencode" => "Percent-encodes a string for use in a URL query.",
        "urldecode" => "Decodes a percent-encoded URL query string (`+` is a space).",
        "yamldecode" => "Decodes a YAML document into a value.",
        "yamlencode" => "Encodes a value as YAML.",
        "abspath" => "Turns a filesystem path into an absolute path.",
        "dirname" => "Removes the last element of a filesystem path.",
        "pathexpand" => "Replaces a leading ~ in a path with the home directory.",
        "basename" => "Returns the last element of a filesystem path.",
        "file" => "Reads a file's contents as UTF-8 text.",
        "fileexists" => "Tells whether a file exists at a path.",
        "fileset" => "Returns the file names under a directory matching a glob pattern.",
        "filebase64" => "Reads a file's contents and encodes them in Base64.",
        "templatefile" => "Renders a template file with the given variables.",
        "formatdate" => "Formats an RFC 3339 timestamp according to a format specification.",
        "timeadd" => "Adds a duration (such as \"1h30m\") to an RFC 3339 timestamp.",
        "timestamp" => "Returns the current UTC time as an RFC 3339 timestamp (unknown until apply).",
        "base64sha256" => "Returns the SHA-256 hash of a string, encoded in Base64.",
        "base64sha512" => "Returns the SHA-512 hash of a string, encoded in Base64.",
        "bcrypt" => "Hashes a string with bcrypt (a new salt every time).",
        "filebase64sha256" => "Returns the SHA-256 hash of a file's contents, encoded in Base64.",
        "filebase64sha512" => "Returns the SHA-512 hash of a file's contents, encoded in Base64.",
        "filemd5" => "Returns the MD5 hash of a file's contents, in hexadecimal.",
        "filesha1" => "Returns the SHA-1 hash of a file's contents, in hexadecimal.",
        "filesha256" => "Returns the SHA-256 hash of a file's contents, in hexadecimal.",
        "filesha512" => "Returns the SHA-512 hash of a file's contents, in hexadecimal.",
        "md5" => "Returns the MD5 hash of a string, in hexadecimal.",
        "rsadecrypt" => "Decrypts Base64 RSA-encrypted text with a PEM private key.",
        "sha1" => "Returns the SHA-1 hash of a string, in hexadecimal.",
        "sha256" => "Returns the SHA-256 hash of a string, in hexadecimal.",
        "sha512" => "Returns the SHA-512 hash of a string, in hexadecimal.",
        "uuid" => "Returns a new random UUID (unknown until apply).",
        "uuidv5" => "Returns a name-based (SHA-1) UUID for a namespace and a name.",
        "cidrcontains" => "Whether an IP address or CIDR prefix lies within another CIDR prefix.",
        "cidrhost" => "Returns the IP address of a host number within a CIDR prefix.",
        "cidrnetmask" => "Returns the netmask of an IPv4 CIDR prefix.",
        "cidrsubnet" => "Computes a subnet address within a CIDR prefix.",
        "cidrsubnets" => "Computes consecutive subnet addresses within a CIDR prefix.",
        "can" => "Tells whether an expression evaluates without an error.",
        "try" => "Returns the first of its argument expressions that evaluates without an error.",
        "type" => "Returns the type of a value (in `ferro console`).",
        "defaults" => "Fills null attributes of a value with defaults (experimental in Terraform 1.0).",
        "nonsensitive" => "Removes the sensitive mark from a value.",
        "sensitive" => "Marks a value as sensitive.",
        "convert" => "Converts a value to a type constraint (`optional` defaults filled in).",
        "tobool" => "Converts a value to a bool.",
        "tolist" => "Converts a value to a list.",
        "tomap" => "Converts a value to a map.",
        "tonumber" => "Converts a value to a number.",
        "toset" => "Converts a value to a set.",
        "tostring" => "Converts a value to a string.",
        _ => "A built-in function.",
    }
}

/// `name(param type, …) ret` for display.
pub fn signature_label(name: &str) -> (String, Vec<String>) {
    let Some(sig) = ferro_eval::function_signature(name) else {
        let params: Vec<String> = match name {
            "can" => vec!["expression".into()],
            "try" => vec!["expressions...".into()],
            "type" => vec!["value".into()],
            "convert" => vec!["value".into(), "type".into()],
            _ => Vec::new(),
        };
        return (format!("{name}({})", params.join(", ")), params);
    };
    let mut params: Vec<String> = sig
        .params
        .iter()
        .map(|(n, t)| format!("{n} {}", t.type_expr()))
        .collect();
    if let Some((n, t)) = &sig.var_param {
        params.push(format!("{n}... {}", t.type_expr()));
    }
    let ret = sig
        .ret
        .map(|t| t.type_expr())
        .unwrap_or_else(|| "dynamic".into());
    (format!("{name}({}) {ret}", params.join(", ")), params)
}

/// A completion snippet calling the function, one placeholder per parameter.
pub fn snippet(name: &str) -> String {
    let names: Vec<String> = match ferro_eval::function_signature(name) {
        Some(sig) => sig
            .params
            .iter()
            .map(|(n, _)| n.to_string())
            .chain(sig.var_param.iter().map(|(n, _)| format!("{n}...")))
            .collect(),
        None if name == "convert" => vec!["value".into(), "type".into()],
        None => vec!["expression".into()],
    };
    let args: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| format!("${{{}:{n}}}", i + 1))
        .collect();
    format!("{name}({})", args.join(", "))
}
