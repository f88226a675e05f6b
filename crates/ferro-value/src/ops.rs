//! Operators with Terraform's semantics: unknown operands give unknown results, marks propagate,
//! operands are converted to the operator's type first (so `"5" + 1` is 6).

use crate::Value;
use std::cmp::Ordering;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    Lt,
    LtEq,
    Gt,
    GtEq,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogicOp {
    And,
    Or,
}

/// An operator failure; `operand` says which side (0 left, 1 right, None: the operation itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpError {
    pub operand: Option<usize>,
    pub message: String,
}

/// Total order for set elements (see `Ord for Value`).
pub fn set_order(_a: &Value, _b: &Value) -> Ordering {
    unimplemented!()
}

/// `a == b` (bool, or unknown bool when either side is unknown).
pub fn equals(_a: &Value, _b: &Value) -> Value {
    unimplemented!()
}

pub fn arith(_op: ArithOp, _a: &Value, _b: &Value) -> Result<Value, OpError> {
    unimplemented!()
}

pub fn compare(_op: CompareOp, _a: &Value, _b: &Value) -> Result<Value, OpError> {
    unimplemented!()
}

pub fn logic(_op: LogicOp, _a: &Value, _b: &Value) -> Result<Value, OpError> {
    unimplemented!()
}

pub fn not(_a: &Value) -> Result<Value, OpError> {
    unimplemented!()
}

pub fn neg(_a: &Value) -> Result<Value, OpError> {
    unimplemented!()
}
