//! Tool arguments made from a tool's `inputSchema`: one set that satisfies it (its required
//! properties, each with a value of its schema: `const`, `default`, the first `enum` or example,
//! else a value of its type within its bounds), and one that breaks it (a required property left
//! out, or a property of the wrong type).

use serde_json::{json, Map, Value};

/// Nesting followed before giving up (a recursive schema).
const DEPTH: usize = 6;

/// The most bytes (as JSON, give or take the few of where it ran out) of arguments made for one
/// call. A schema is the server's: a
/// few hundred bytes of arrays with `minItems` nested six deep ask for 16^6 values (2.6 GB made
/// before this bound). Past it arrays get fewer items than they ask for, and strings and given
/// values (`default`, `const`…) are left out: the arguments may then not satisfy the schema, and
/// the call's note says they were cut.
pub const MAX_ARGUMENTS_BYTES: usize = 64 * 1024;

/// What is left of [`MAX_ARGUMENTS_BYTES`] while arguments are made.
struct Budget {
    left: usize,
    /// Something was left out.
    cut: bool,
}

impl Budget {
    fn new() -> Budget {
        Budget {
            left: MAX_ARGUMENTS_BYTES,
            cut: false,
        }
    }

    /// Takes `bytes` from the budget; false (and cut) when they are not left.
    fn spend(&mut self, bytes: usize) -> bool {
        if bytes <= self.left {
            self.left -= bytes;
            true
        } else {
            self.cut = true;
            false
        }
    }
}

/// The length of `value` as compact JSON (without writing it anywhere).
fn json_len(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// Arguments that satisfy `schema` (an object schema), within [`MAX_ARGUMENTS_BYTES`]; true when
/// the bound cut them.
pub fn valid(schema: &Value) -> (Value, bool) {
    let mut budget = Budget::new();
    let args = object(schema, 0, &mut budget);
    (args, budget.cut)
}

/// Arguments that break `schema`, and how; `None` when the schema accepts anything.
pub fn invalid(schema: &Value) -> Option<(Value, String)> {
    let properties = schema.get("properties").and_then(Value::as_object);
    let required = required(schema);
    if let Some(first) = required.first() {
        let (mut args, cut) = valid(schema);
        if let Some(map) = args.as_object_mut() {
            map.remove(first.as_str());
        }
        let cut = if cut {
            format!(" (the rest cut to {MAX_ARGUMENTS_BYTES} bytes)")
        } else {
            String::new()
        };
        return Some((
            args,
            format!("the required argument {first:?} left out{cut}"),
        ));
    }
    let properties = properties?;
    for (name, property) in properties {
        if let Some(wrong) = wrong_type(property) {
            let mut args = Map::new();
            args.insert(name.clone(), wrong);
            return Some((
                Value::Object(args),
                format!("the argument {name:?} of the wrong type"),
            ));
        }
    }
    None
}

fn required(schema: &Value) -> Vec<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn object(schema: &Value, depth: usize, budget: &mut Budget) -> Value {
    let mut args = Map::new();
    budget.spend(2);
    let properties = schema.get("properties").and_then(Value::as_object);
    for name in required(schema) {
        // The key, its quotes, colon and comma.
        if !budget.spend(name.len() + 4) {
            break;
        }
        let value = match properties.and_then(|p| p.get(&name)) {
            Some(p) => example(p, depth + 1, budget),
            None => probe_string(budget),
        };
        args.insert(name, value);
    }
    Value::Object(args)
}

/// The string "probe", or "" when the budget is spent.
fn probe_string(budget: &mut Budget) -> Value {
    if budget.spend(7) {
        Value::String("probe".into())
    } else {
        Value::String(String::new())
    }
}

/// `value` (given by the schema), or null when it does not fit the budget.
fn given(value: &Value, budget: &mut Budget) -> Value {
    if budget.spend(json_len(value)) {
        value.clone()
    } else {
        Value::Null
    }
}

/// A value `schema` accepts (as far as a generator without a validator can tell), within what is
/// left of `budget`.
fn example(schema: &Value, depth: usize, budget: &mut Budget) -> Value {
    if depth > DEPTH || budget.cut {
        return Value::Null;
    }
    if let Some(v) = schema.get("const") {
        return given(v, budget);
    }
    if let Some(v) = schema.get("default") {
        return given(v, budget);
    }
    if let Some(v) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return given(v, budget);
    }
    if let Some(v) = schema
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return given(v, budget);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = schema
            .get(key)
            .and_then(Value::as_array)
            .and_then(|a| a.first())
        {
            return example(first, depth + 1, budget);
        }
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let ty = types
        .iter()
        .copied()
        .find(|t| *t != "null")
        .or(types.first().copied());
    match ty {
        Some("string") => {
            let text = string(schema);
            given(&text, budget)
        }
        Some("integer") => given(&number(schema, true), budget),
        Some("number") => given(&number(schema, false), budget),
        Some("boolean") => given(&Value::Bool(true), budget),
        Some("array") => {
            budget.spend(2);
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            if min == 0 {
                return Value::Array(Vec::new());
            }
            let item = match schema.get("items") {
                Some(items) => example(items, depth + 1, budget),
                None => probe_string(budget),
            };
            // The first item is paid for; each copy costs its length and a comma.
            let copy = json_len(&item) + 1;
            let mut items = vec![item];
            while (items.len() as u64) < min.min(16) && budget.spend(copy) {
                items.push(items[0].clone());
            }
            Value::Array(items)
        }
        Some("object") => object(schema, depth, budget),
        Some("null") => Value::Null,
        _ if schema.get("properties").is_some() => object(schema, depth, budget),
        _ => probe_string(budget),
    }
}

fn string(schema: &Value) -> Value {
    let format = schema.get("format").and_then(Value::as_str);
    let mut text = match format {
        Some("uri" | "url") => "https://example.com/".to_string(),
        Some("email") => "probe@example.com".to_string(),
        Some("date-time") => "2025-01-01T00:00:00Z".to_string(),
        Some("date") => "2025-01-01".to_string(),
        Some("uuid") => "00000000-0000-4000-8000-000000000000".to_string(),
        _ => "probe".to_string(),
    };
    let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    let max = schema.get("maxLength").and_then(Value::as_u64);
    while (text.chars().count() as u64) < min.min(4096) {
        text.push('x');
    }
    if let Some(max) = max {
        text = text
            .chars()
            .take(usize::try_from(max).unwrap_or(usize::MAX))
            .collect();
    }
    Value::String(text)
}

fn number(schema: &Value, integer: bool) -> Value {
    let bound = |key| schema.get(key).and_then(Value::as_f64);
    let mut n = 1.0_f64;
    if let Some(min) = bound("minimum") {
        n = n.max(min);
    }
    if let Some(min) = bound("exclusiveMinimum") {
        n = n.max(min + 1.0);
    }
    if let Some(max) = bound("maximum") {
        n = n.min(max);
    }
    if let Some(max) = bound("exclusiveMaximum") {
        n = n.min(max - 1.0);
    }
    // An integral value is written without a fraction: it is a valid "number" and "integer" both.
    if integer || n.fract() == 0.0 {
        json!(n.ceil() as i64)
    } else {
        json!(n)
    }
}

/// A value of another type than `schema` allows (`None` when it allows any).
fn wrong_type(schema: &Value) -> Option<Value> {
    let ty = schema.get("type")?.as_str()?;
    Some(match ty {
        "string" => json!(12345),
        "integer" | "number" => json!("not a number"),
        "boolean" => json!("not a boolean"),
        "array" | "object" => json!(12345),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_arguments_fill_the_required_properties_within_bounds() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": "number"},
                "n": {"type": "integer", "minimum": 3, "maximum": 9},
                "s": {"type": "string", "minLength": 8},
                "e": {"enum": ["x", "y"]},
                "l": {"type": "array", "items": {"type": "boolean"}, "minItems": 2},
                "o": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]},
                "optional": {"type": "string"}
            },
            "required": ["a", "n", "s", "e", "l", "o"]
        });
        assert_eq!(
            valid(&schema),
            (
                json!({"a": 1, "n": 3, "s": "probexxx", "e": "x", "l": [true, true], "o": {"k": "probe"}}),
                false
            )
        );
    }

    #[test]
    fn invalid_arguments_leave_out_a_required_one_or_break_a_type() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]});
        let (args, how) = invalid(&schema).unwrap();
        assert_eq!(args, json!({"b": 1}));
        assert!(how.contains("\"a\""));
        let schema = json!({"type": "object", "properties": {"s": {"type": "string"}}});
        assert_eq!(invalid(&schema).unwrap().0, json!({"s": 12345}));
        assert_eq!(invalid(&json!({"type": "object"})), None);
    }

    #[test]
    fn recursive_schemas_end() {
        let schema =
            json!({"type": "object", "properties": {"x": {"$ref": "#"}}, "required": ["x"]});
        assert_eq!(valid(&schema), (json!({"x": "probe"}), false));
    }

    /// Arrays of 16 items nested six deep (16^6 values, 2.6 GB made before the bound), in four
    /// properties.
    fn amplifying_schema() -> Value {
        let mut inner = json!({"type": "string", "minLength": 4000});
        for _ in 0..6 {
            inner = json!({"type": "array", "minItems": 16, "items": inner});
        }
        json!({
            "type": "object",
            "properties": {"a": inner, "b": inner, "c": inner, "d": inner},
            "required": ["a", "b", "c", "d"]
        })
    }

    #[test]
    fn arguments_are_bounded_whatever_the_schema_asks_for() {
        let (args, cut) = valid(&amplifying_schema());
        assert!(cut);
        let bytes = serde_json::to_string(&args).unwrap().len();
        // Brackets and nulls of where the budget ran out are not counted: a few bytes over.
        assert!(bytes <= MAX_ARGUMENTS_BYTES + 64, "{bytes} bytes");
        // As much as fits is made: the first property is there, many levels deep.
        assert!(bytes > MAX_ARGUMENTS_BYTES / 2, "{bytes} bytes");
        let (args, how) = invalid(&amplifying_schema()).unwrap();
        assert!(serde_json::to_string(&args).unwrap().len() <= MAX_ARGUMENTS_BYTES + 64);
        assert!(how.ends_with("(the rest cut to 65536 bytes)"), "{how}");
    }

    #[test]
    fn a_large_default_is_left_out_past_the_bound() {
        let big = "x".repeat(MAX_ARGUMENTS_BYTES + 1);
        let schema = json!({"type": "object", "properties": {"s": {"type": "string", "default": big}}, "required": ["s"]});
        assert_eq!(valid(&schema), (json!({"s": null}), true));
    }
}
