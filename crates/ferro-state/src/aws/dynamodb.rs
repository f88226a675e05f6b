//! The DynamoDB operations of the s3 backend's lock table: PutItem (conditional), GetItem
//! (consistent) and DeleteItem on items whose attributes are all strings, and CreateTable for
//! tests. JSON 1.0 protocol (`X-Amz-Target: DynamoDB_20120810.<Operation>`).

use super::{transport_error, AwsError, Service, Session};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A DynamoDB endpoint.
pub struct DynamoDbClient {
    pub session: Arc<Session>,
    /// `scheme://host[:port]`.
    pub endpoint: String,
}

/// The default DynamoDB endpoint of `region`.
pub fn default_endpoint(region: &str) -> String {
    format!("https://dynamodb.{region}.amazonaws.com")
}

/// `{"A": {"S": "v"}, ...}`.
fn string_item(item: &BTreeMap<&str, &str>) -> Value {
    let mut m = serde_json::Map::new();
    for (k, v) in item {
        m.insert(k.to_string(), json!({ "S": v }));
    }
    Value::Object(m)
}

impl DynamoDbClient {
    fn call(&self, operation: &str, body: Value) -> Result<Value, AwsError> {
        let text = serde_json::to_vec(&body).unwrap_or_default();
        let url = format!("{}/", self.endpoint.trim_end_matches('/'));
        let resp = self
            .session
            .send(
                Service::DynamoDb,
                "POST",
                &url,
                vec![
                    ("content-type".into(), "application/x-amz-json-1.0".into()),
                    (
                        "x-amz-target".into(),
                        format!("DynamoDB_20120810.{operation}"),
                    ),
                ],
                &text,
            )
            .map_err(|e| transport_error(operation, e))?;
        let parsed: Value = serde_json::from_slice(&resp.body).unwrap_or(Value::Null);
        if resp.ok() {
            return Ok(parsed);
        }
        let ty = parsed
            .get("__type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let code = ty.rsplit('#').next().unwrap_or(ty).to_string();
        let message = parsed
            .get("message")
            .or_else(|| parsed.get("Message"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        Err(AwsError {
            operation: operation.to_string(),
            status: resp.status,
            code,
            message,
        })
    }

    /// PutItem; with `only_if_absent`, fails (`ConditionalCheckFailedException`) when an item
    /// with the same `LockID` exists.
    pub fn put_item(
        &self,
        table: &str,
        item: &BTreeMap<&str, &str>,
        only_if_absent: bool,
    ) -> Result<(), AwsError> {
        let mut body = json!({ "TableName": table, "Item": string_item(item) });
        if only_if_absent {
            body["ConditionExpression"] = json!("attribute_not_exists(LockID)");
        }
        self.call("PutItem", body).map(|_| ())
    }

    /// GetItem (consistent read) of the item whose `LockID` is `lock_id`: its string
    /// attributes, or None.
    pub fn get_item(
        &self,
        table: &str,
        lock_id: &str,
    ) -> Result<Option<BTreeMap<String, String>>, AwsError> {
        let body = json!({
            "TableName": table,
            "Key": { "LockID": { "S": lock_id } },
            "ConsistentRead": true,
        });
        let v = self.call("GetItem", body)?;
        let Some(item) = v.get("Item").and_then(Value::as_object) else {
            return Ok(None);
        };
        Ok(Some(
            item.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.get("S")?.as_str()?.to_string())))
                .collect(),
        ))
    }

    /// DeleteItem of the item whose `LockID` is `lock_id`.
    pub fn delete_item(&self, table: &str, lock_id: &str) -> Result<(), AwsError> {
        let body = json!({ "TableName": table, "Key": { "LockID": { "S": lock_id } } });
        self.call("DeleteItem", body).map(|_| ())
    }

    /// Every item of `table` (Scan; for tests).
    pub fn scan(&self, table: &str) -> Result<Vec<BTreeMap<String, String>>, AwsError> {
        let v = self.call("Scan", json!({ "TableName": table }))?;
        Ok(v.get("Items")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .map(|item| {
                item.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.get("S")?.as_str()?.to_string())))
                    .collect()
            })
            .collect())
    }

    /// CreateTable with Terraform's lock table layout (a string hash key `LockID`), on demand.
    pub fn create_lock_table(&self, table: &str) -> Result<(), AwsError> {
        let body = json!({
            "TableName": table,
            "KeySchema": [{ "AttributeName": "LockID", "KeyType": "HASH" }],
            "AttributeDefinitions": [{ "AttributeName": "LockID", "AttributeType": "S" }],
            "BillingMode": "PAY_PER_REQUEST",
        });
        self.call("CreateTable", body).map(|_| ())
    }
}
