//! Tool arguments made from a tool's `inputSchema`: one set that satisfies it (its required
//! properties, each with a value of its schema: `const`, `default`, the first `enum` or example,
//! else a value of its type within its bounds), and one that breaks it (a required property left
//! out, or a property of the wrong type).

use serde_json::{json, Map, Value};

/// Nesting followed before giving up (a recursive schema).
const DEPTH: usize = 6;

/// Arguments that satisfy `schema` (an object schema).
pub fn valid(schema: &Value) -> Value {
    object(schema, 0)
}

/// Arguments that break `schema`, and how; `None` when the schema accepts anything.
pub fn invalid(schema: &Value) -> Option<(Value, String)> {
    let properties = schema.get("properties").and_then(Value::as_object);
    let required = required(schema);
    if let Some(first) = required.first() {
        let mut args = valid(schema);
        if let Some(map) = args.as_object_mut() {
            map.remove(first.as_str());
        }
        return Some((args, format!("the required argument {first:?} left out")));
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

fn object(schema: &Value, depth: usize) -> Value {
    let mut args = Map::new();
    let properties = schema.get("properties").and_then(Value::as_object);
    for name in required(schema) {
        let value = properties
            .and_then(|p| p.get(&name))
            .map_or(Value::String("probe".into()), |p| example(p, depth + 1));
        args.insert(name, value);
    }
    Value::Object(args)
}

/// A value `schema` accepts (as far as a generator without a validator can tell).
pub fn example(schema: &Value, depth: usize) -> Value {
    if depth > DEPTH {
        return Value::Null;
    }
    if let Some(v) = schema.get("const") {
        return v.clone();
    }
    if let Some(v) = schema.get("default") {
        return v.clone();
    }
    if let Some(v) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return v.clone();
    }
    if let Some(v) = schema
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return v.clone();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = schema
            .get(key)
            .and_then(Value::as_array)
            .and_then(|a| a.first())
        {
            return example(first, depth + 1);
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
        Some("string") => string(schema),
        Some("integer") => number(schema, true),
        Some("number") => number(schema, false),
        Some("boolean") => Value::Bool(true),
        Some("array") => {
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let item = schema
                .get("items")
                .map_or(Value::String("probe".into()), |i| example(i, depth + 1));
            Value::Array((0..min.min(16)).map(|_| item.clone()).collect())
        }
        Some("object") => object(schema, depth),
        Some("null") => Value::Null,
        _ if schema.get("properties").is_some() => object(schema, depth),
        _ => Value::String("probe".into()),
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
            json!({"a": 1, "n": 3, "s": "probexxx", "e": "x", "l": [true, true], "o": {"k": "probe"}})
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
        assert_eq!(valid(&schema), json!({"x": "probe"}));
    }
}
