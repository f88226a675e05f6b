//! The `random` provider with HashiCorp's schemas (hashicorp/random 3.x): `random_id`,
//! `random_string`, `random_password` (sensitive), `random_integer`, `random_uuid`,
//! `random_pet`, `random_shuffle`. Every configurable argument forces replacement (`keepers`
//! included); computed results keep their state value.

use crate::rng;
use ferro_sdk::modifiers::{requires_replace, use_state_for_unknown};
use ferro_sdk::validators::at_least;
use ferro_sdk::values::{get, get_bool, get_i64, get_str, with};
use ferro_sdk::{
    attr_error, Attr, Diags, EphemeralResource, Opened, Resource, ResourceSchema, SdkProvider,
    Type, Value,
};

pub fn provider() -> SdkProvider {
    SdkProvider::new("random")
        .resource("random_id", RandomId)
        .resource("random_string", RandomString { password: false })
        .resource("random_password", RandomString { password: true })
        .resource("random_integer", RandomInteger)
        .resource("random_uuid", RandomUuid)
        .resource("random_pet", RandomPet)
        .resource("random_shuffle", RandomShuffle)
        .ephemeral_resource("random_password", EphemeralPassword)
}

/// `ephemeral "random_password"` (hashicorp/random 3.7): a password generated each time it is
/// opened, never stored. Its arguments are random_password's but `keepers` and `number`; the
/// optional ones take their defaults when opened.
pub struct EphemeralPassword;

impl EphemeralResource for EphemeralPassword {
    fn schema(&self) -> ResourceSchema {
        let flag = || Attr::bool().optional().computed();
        let min = || Attr::number().optional().computed();
        ResourceSchema::new()
            .attr(
                "length",
                Attr::number()
                    .required()
                    .validate(at_least(1))
                    .describe("The length of the string desired."),
            )
            .attr("special", flag())
            .attr("upper", flag())
            .attr("lower", flag())
            .attr("numeric", flag())
            .attr("min_numeric", min())
            .attr("min_upper", min())
            .attr("min_lower", min())
            .attr("min_special", min())
            .attr("override_special", Attr::string().optional())
            .attr("result", Attr::string().computed().sensitive())
            .attr("bcrypt_hash", Attr::string().computed().sensitive())
    }

    fn validate(&self, config: &Value, diags: &mut Diags) {
        RandomString { password: true }.validate(config, diags)
    }

    fn open(&self, config: &Value) -> Result<Opened, Diags> {
        let mut v = config.clone();
        for n in ["special", "upper", "lower", "numeric"] {
            if get(&v, n).is_null() {
                v = with(&v, n, Value::bool(true));
            }
        }
        for n in ["min_numeric", "min_upper", "min_lower", "min_special"] {
            if get(&v, n).is_null() {
                v = with(&v, n, Value::int(0));
            }
        }
        let s = generate(&v)?;
        v = with(&v, "bcrypt_hash", Value::string(pseudo_hash(&s)));
        v = with(&v, "result", Value::string(s));
        Ok(Opened {
            result: v,
            private: Vec::new(),
            renew_at: None,
        })
    }
}

fn keepers() -> Attr {
    Attr::map_of_strings()
        .optional()
        .describe(
            "Arbitrary map of values that, when changed, will trigger recreation of resource.",
        )
        .modifier(requires_replace())
}

fn result(a: Attr) -> Attr {
    a.computed().modifier(use_state_for_unknown())
}

fn force_new(a: Attr) -> Attr {
    a.modifier(requires_replace())
}

/// Fill every unknown attribute of `planned` from `values`.
fn fill(planned: &Value, values: Vec<(&str, Value)>) -> Value {
    let mut v = planned.clone();
    for (name, val) in values {
        if !get(planned, name).is_known() {
            v = with(&v, name, val);
        }
    }
    v
}

pub struct RandomId;

impl Resource for RandomId {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr("id", result(Attr::string()))
            .attr("keepers", keepers())
            .attr(
                "byte_length",
                force_new(Attr::number().required().validate(at_least(1)))
                    .describe("The number of random bytes to produce. The minimum value is 1, which produces eight bits of randomness."),
            )
            .attr("prefix", force_new(Attr::string().optional()))
            .attr("b64_url", result(Attr::string()))
            .attr("b64_std", result(Attr::string()))
            .attr("hex", result(Attr::string()))
            .attr("dec", result(Attr::string()))
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let n = get_i64(planned, "byte_length").unwrap_or(0).max(1) as usize;
        Ok(fill(
            planned,
            id_values(
                &rng::bytes(n),
                &get_str(planned, "prefix").unwrap_or_default(),
            ),
        ))
    }

    fn import(&self, id: &str) -> Result<Value, Diags> {
        use base64::Engine;
        let (prefix, b64) = match id.split_once(',') {
            Some((p, b)) => (p.to_string(), b),
            None => (String::new(), id),
        };
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(b64)
            .map_err(|e| {
                vec![ferro_sdk::Diagnostic::error(
                    "Import Random ID Error",
                    format!("error decoding ID: {e}"),
                )]
            })?;
        let base = self.schema().to_block().empty_value();
        let mut v = fill(&base, Vec::new());
        v = with(&v, "byte_length", Value::int(bytes.len() as i64));
        if !prefix.is_empty() {
            v = with(&v, "prefix", Value::string(prefix.clone()));
        }
        for (name, val) in id_values(&bytes, &prefix) {
            v = with(&v, name, val);
        }
        Ok(v)
    }
}

fn id_values(bytes: &[u8], prefix: &str) -> Vec<(&'static str, Value)> {
    use base64::Engine;
    let url = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let std = base64::engine::general_purpose::STANDARD.encode(bytes);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    vec![
        ("id", Value::string(url.clone())),
        ("b64_url", Value::string(format!("{prefix}{url}"))),
        ("b64_std", Value::string(format!("{prefix}{std}"))),
        ("hex", Value::string(format!("{prefix}{hex}"))),
        ("dec", Value::string(format!("{prefix}{}", decimal(bytes)))),
    ]
}

/// The big-endian unsigned integer `bytes` in decimal.
fn decimal(bytes: &[u8]) -> String {
    let mut digits: Vec<u8> = vec![0];
    for &b in bytes {
        let mut carry = b as u32;
        for d in digits.iter_mut() {
            let x = *d as u32 * 256 + carry;
            *d = (x % 10) as u8;
            carry = x / 10;
        }
        while carry > 0 {
            digits.push((carry % 10) as u8);
            carry /= 10;
        }
    }
    digits.iter().rev().map(|d| (b'0' + d) as char).collect()
}

pub struct RandomString {
    password: bool,
}

const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const NUMERIC: &str = "0123456789";
const SPECIAL: &str = "!@#$%&*()-_=+[]{}<>:?";

impl Resource for RandomString {
    fn schema(&self) -> ResourceSchema {
        let flag = |d: bool| force_new(Attr::bool().default(Value::bool(d)));
        let min = || force_new(Attr::number().default(Value::int(0)));
        let mut s = ResourceSchema::new()
            .version(if self.password { 3 } else { 2 })
            .attr("id", result(Attr::string()))
            .attr("keepers", keepers())
            .attr(
                "length",
                force_new(Attr::number().required().validate(at_least(1))),
            )
            .attr("special", flag(true))
            .attr("upper", flag(true))
            .attr("lower", flag(true))
            .attr("numeric", flag(true))
            .attr("number", flag(true).deprecated())
            .attr("min_numeric", min())
            .attr("min_upper", min())
            .attr("min_lower", min())
            .attr("min_special", min())
            .attr("override_special", force_new(Attr::string().optional()))
            .attr("result", {
                let r = result(Attr::string());
                if self.password {
                    r.sensitive()
                } else {
                    r
                }
            });
        if self.password {
            s = s.attr("bcrypt_hash", result(Attr::string()).sensitive());
        }
        s
    }

    /// State written by older provider versions: before random_string 2 / random_password 3
    /// there was no `numeric` (its value was `number`'s), and random_password objects before
    /// version 3 may lack `bcrypt_hash` (it is computed from `result`).
    fn upgrade_state(
        &self,
        version: u64,
        old: &serde_json::Value,
    ) -> Result<serde_json::Value, Diags> {
        let Some(mut obj) = old.as_object().cloned() else {
            return Err(vec![ferro_sdk::Diagnostic::error(
                "Unable to Upgrade Resource State",
                format!("The stored state (schema version {version}) is not an object."),
            )]);
        };
        let number = match obj.get("number") {
            Some(n) if !n.is_null() => n.clone(),
            _ => serde_json::Value::Bool(true),
        };
        if obj.get("numeric").is_none_or(serde_json::Value::is_null) {
            obj.insert("numeric".into(), number.clone());
        }
        if obj.get("number").is_none_or(serde_json::Value::is_null) {
            obj.insert("number".into(), number);
        }
        if self.password
            && obj
                .get("bcrypt_hash")
                .is_none_or(serde_json::Value::is_null)
        {
            if let Some(result) = obj.get("result").and_then(serde_json::Value::as_str) {
                let hash = pseudo_hash(result);
                obj.insert("bcrypt_hash".into(), serde_json::Value::String(hash));
            }
        }
        Ok(serde_json::Value::Object(obj))
    }

    fn validate(&self, config: &Value, diags: &mut Diags) {
        if let Some(len) = get_i64(config, "length") {
            let mins: i64 = ["min_numeric", "min_upper", "min_lower", "min_special"]
                .iter()
                .filter_map(|m| get_i64(config, m))
                .sum();
            if mins > len {
                diags.push(attr_error("length", "Invalid Attribute Value", format!("Attribute length value must be at least sum of min_upper + min_lower + min_numeric + min_special, got: {len}")));
            }
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let s = generate(planned)?;
        let id = if self.password {
            "none".to_string()
        } else {
            s.clone()
        };
        let mut values = vec![
            ("result", Value::string(s.clone())),
            ("id", Value::string(id)),
        ];
        if self.password {
            values.push(("bcrypt_hash", Value::string(pseudo_hash(&s))));
        }
        Ok(fill(planned, values))
    }

    fn import(&self, id: &str) -> Result<Value, Diags> {
        self.import_object(id)
    }
}

/// A random string as the arguments of `planned` ask for it (random_string, random_password,
/// the ephemeral random_password).
fn generate(planned: &Value) -> Result<String, Diags> {
    let on = |n: &str| get_bool(planned, n).unwrap_or(true);
    let special = get_str(planned, "override_special").unwrap_or_else(|| SPECIAL.to_string());
    let mut sets: Vec<(String, i64)> = Vec::new();
    if on("lower") {
        sets.push((LOWER.into(), get_i64(planned, "min_lower").unwrap_or(0)));
    }
    if on("upper") {
        sets.push((UPPER.into(), get_i64(planned, "min_upper").unwrap_or(0)));
    }
    if on("numeric") && on("number") {
        sets.push((NUMERIC.into(), get_i64(planned, "min_numeric").unwrap_or(0)));
    }
    if on("special") && !special.is_empty() {
        sets.push((special, get_i64(planned, "min_special").unwrap_or(0)));
    }
    let all: Vec<char> = sets.iter().flat_map(|(s, _)| s.chars()).collect();
    if all.is_empty() {
        return Err(vec![attr_error(
            "length",
            "Invalid character set",
            "At least one character class must be enabled.",
        )]);
    }
    let len = get_i64(planned, "length").unwrap_or(0).max(0) as usize;
    let mut out: Vec<char> = Vec::new();
    for (set, min) in &sets {
        let chars: Vec<char> = set.chars().collect();
        for _ in 0..*min {
            out.push(chars[rng::below(chars.len() as u64) as usize]);
        }
    }
    while out.len() < len {
        out.push(all[rng::below(all.len() as u64) as usize]);
    }
    // Shuffle so the minimum characters are not all at the front.
    for i in (1..out.len()).rev() {
        let j = rng::below(i as u64 + 1) as usize;
        out.swap(i, j);
    }
    Ok(out.into_iter().collect())
}

impl RandomString {
    fn import_object(&self, id: &str) -> Result<Value, Diags> {
        let mut v = self.schema().to_block().empty_value();
        let defaults = [
            ("special", true),
            ("upper", true),
            ("lower", true),
            ("numeric", true),
            ("number", true),
        ];
        for (n, d) in defaults {
            v = with(&v, n, Value::bool(d));
        }
        for n in ["min_numeric", "min_upper", "min_lower", "min_special"] {
            v = with(&v, n, Value::int(0));
        }
        v = with(&v, "length", Value::int(id.chars().count() as i64));
        v = with(&v, "result", Value::string(id));
        v = with(
            &v,
            "id",
            Value::string(if self.password { "none" } else { id }),
        );
        if self.password {
            v = with(&v, "bcrypt_hash", Value::string(pseudo_hash(id)));
        }
        Ok(v)
    }
}

/// A salted digest standing in for HashiCorp's bcrypt hash (see docs/compatibility.md).
fn pseudo_hash(s: &str) -> String {
    use base64::Engine;
    let salt = rng::bytes(16);
    let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
    ctx.update(&salt);
    ctx.update(s.as_bytes());
    let e = base64::engine::general_purpose::STANDARD_NO_PAD;
    format!("$sha256${}${}", e.encode(&salt), e.encode(ctx.finish()))
}

pub struct RandomInteger;

impl Resource for RandomInteger {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr("id", result(Attr::string()))
            .attr("keepers", keepers())
            .attr("min", force_new(Attr::number().required()))
            .attr("max", force_new(Attr::number().required()))
            .attr("seed", force_new(Attr::string().optional()))
            .attr("result", result(Attr::number()))
    }

    fn validate(&self, config: &Value, diags: &mut Diags) {
        if let (Some(min), Some(max)) = (get_i64(config, "min"), get_i64(config, "max")) {
            if max < min {
                diags.push(attr_error(
                    "max",
                    "Invalid Attribute Value",
                    format!("Attribute max value must be at least {min}, got: {max}"),
                ));
            }
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let min = get_i64(planned, "min").unwrap_or(0);
        let max = get_i64(planned, "max").unwrap_or(0);
        if max < min {
            return Err(vec![attr_error(
                "max",
                "Invalid Attribute Value",
                "The maximum must not be less than the minimum.",
            )]);
        }
        let span = (max - min) as u64 + 1;
        let n = match get_str(planned, "seed") {
            Some(seed) => min + (seeded(&seed, 0) % span) as i64,
            None => min + rng::below(span) as i64,
        };
        Ok(fill(
            planned,
            vec![
                ("result", Value::int(n)),
                ("id", Value::string(n.to_string())),
            ],
        ))
    }

    fn import(&self, id: &str) -> Result<Value, Diags> {
        let parts: Vec<&str> = id.split(',').collect();
        let bad = || {
            vec![ferro_sdk::Diagnostic::error("Invalid import specification", format!("Invalid import usage: expecting {{result}},{{min}},{{max}} or {{result}},{{min}},{{max}},{{seed}}, got {id:?}"))]
        };
        if parts.len() != 3 && parts.len() != 4 {
            return Err(bad());
        }
        let nums: Vec<i64> = parts[..3]
            .iter()
            .map(|p| p.parse::<i64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        let mut v = self.schema().to_block().empty_value();
        v = with(&v, "result", Value::int(nums[0]));
        v = with(&v, "id", Value::string(parts[0]));
        v = with(&v, "min", Value::int(nums[1]));
        v = with(&v, "max", Value::int(nums[2]));
        if parts.len() == 4 {
            v = with(&v, "seed", Value::string(parts[3]));
        }
        Ok(v)
    }
}

/// A deterministic pseudo-random number from a seed string and a counter.
fn seeded(seed: &str, n: u64) -> u64 {
    let d = ring::digest::digest(&ring::digest::SHA256, format!("{seed}\u{0}{n}").as_bytes());
    let b = d.as_ref();
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

pub struct RandomUuid;

impl Resource for RandomUuid {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr("id", result(Attr::string()))
            .attr("keepers", keepers())
            .attr("result", result(Attr::string()))
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let u = rng::uuid();
        Ok(fill(
            planned,
            vec![
                ("result", Value::string(u.clone())),
                ("id", Value::string(u)),
            ],
        ))
    }

    fn import(&self, id: &str) -> Result<Value, Diags> {
        let ok = id.len() == 36
            && id.chars().enumerate().all(|(i, c)| {
                if [8, 13, 18, 23].contains(&i) {
                    c == '-'
                } else {
                    c.is_ascii_hexdigit()
                }
            });
        if !ok {
            return Err(vec![ferro_sdk::Diagnostic::error(
                "Import Random UUID Error",
                format!("{id:?} is not a valid UUID"),
            )]);
        }
        let mut v = self.schema().to_block().empty_value();
        v = with(&v, "result", Value::string(id.to_lowercase()));
        v = with(&v, "id", Value::string(id.to_lowercase()));
        Ok(v)
    }
}

const ADJECTIVES: &[&str] = &[
    "able", "bold", "brave", "calm", "clever", "cool", "eager", "fair", "famous", "fine", "gentle",
    "glad", "golden", "happy", "humble", "just", "keen", "kind", "lively", "lucky", "merry",
    "modest", "neat", "noble", "polite", "proud", "quick", "quiet", "rapid", "sharp", "smart",
    "steady", "sunny", "super", "sweet", "tidy", "vast", "warm", "wise", "witty",
];
const ADVERBS: &[&str] = &[
    "abnormally",
    "actually",
    "badly",
    "barely",
    "boldly",
    "briefly",
    "calmly",
    "closely",
    "deeply",
    "early",
    "easily",
    "evenly",
    "fairly",
    "firmly",
    "freely",
    "gladly",
    "gently",
    "greatly",
    "highly",
    "kindly",
    "largely",
    "lightly",
    "loudly",
    "mainly",
    "mostly",
    "neatly",
    "nicely",
    "openly",
    "partly",
    "quickly",
    "rarely",
    "really",
    "simply",
    "slowly",
    "subtly",
    "truly",
    "vastly",
    "warmly",
    "wholly",
    "wildly",
];
const NAMES: &[&str] = &[
    "ant", "bat", "bear", "bee", "bison", "boar", "camel", "cat", "cow", "crab", "crane", "deer",
    "dingo", "dodo", "dog", "dove", "duck", "eagle", "eel", "elk", "emu", "falcon", "ferret",
    "finch", "fish", "fox", "frog", "gecko", "goat", "goose", "hare", "hawk", "horse", "ibex",
    "koala", "lark", "lemur", "lion", "lynx", "mole", "moose", "mouse", "newt", "otter", "owl",
    "panda", "pig", "puma", "quail", "rabbit", "ram", "raven", "seal", "shark", "sheep", "sloth",
    "snail", "swan", "tiger", "toad", "trout", "wasp", "whale", "wolf", "yak", "zebra",
];

pub struct RandomPet;

impl Resource for RandomPet {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr("id", result(Attr::string()))
            .attr("keepers", keepers())
            .attr(
                "length",
                force_new(Attr::number().default(Value::int(2)).validate(at_least(1))),
            )
            .attr("prefix", force_new(Attr::string().optional()))
            .attr(
                "separator",
                force_new(Attr::string().default(Value::string("-"))),
            )
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let len = get_i64(planned, "length").unwrap_or(2).max(1) as usize;
        let sep = get_str(planned, "separator").unwrap_or_else(|| "-".into());
        let pick = |list: &[&str]| list[rng::below(list.len() as u64) as usize].to_string();
        let mut words = Vec::new();
        if let Some(p) = get_str(planned, "prefix") {
            words.push(p);
        }
        for _ in 0..len.saturating_sub(2) {
            words.push(pick(ADVERBS));
        }
        if len >= 2 {
            words.push(pick(ADJECTIVES));
        }
        words.push(pick(NAMES));
        Ok(fill(planned, vec![("id", Value::string(words.join(&sep)))]))
    }
}

pub struct RandomShuffle;

impl Resource for RandomShuffle {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr("id", result(Attr::string()))
            .attr("keepers", keepers())
            .attr("input", force_new(Attr::list_of_strings().required()))
            .attr("seed", force_new(Attr::string().optional()))
            .attr(
                "result_count",
                force_new(Attr::number().optional().validate(at_least(0))),
            )
            .attr("result", result(Attr::list_of_strings()))
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let mut input: Vec<Value> = get(planned, "input")
            .as_elements()
            .map(|e| e.to_vec())
            .unwrap_or_default();
        let seed = get_str(planned, "seed");
        for i in (1..input.len()).rev() {
            let r = match &seed {
                Some(s) => seeded(s, i as u64),
                None => rng::below(u64::MAX),
            };
            input.swap(i, (r % (i as u64 + 1)) as usize);
        }
        if let Some(n) = get_i64(planned, "result_count") {
            let mut out = Vec::new();
            while out.len() < n.max(0) as usize && !input.is_empty() {
                out.extend(input.iter().take(n as usize - out.len()).cloned());
            }
            input = out;
        }
        Ok(fill(
            planned,
            vec![
                ("result", Value::list(Type::String, input)),
                ("id", Value::string("-")),
            ],
        ))
    }
}
