//! The value and type model ferro shares with Terraform (cty semantics).
//!
//! Every value has a type; any value may be null or unknown (of a type, possibly `Dynamic`);
//! any value may carry marks (today: sensitive). Collections are shared behind `Arc` so cloning a
//! value is cheap.

pub mod civil;
mod gostring;
mod key;
mod map;
mod number;
mod packed;
mod share;
mod text;
mod ty;
mod value;

pub mod convert;
pub mod defaults;
pub mod hcl_text;
pub mod json;
pub mod msgpack;
pub mod ops;
pub mod schema;
pub mod unify;

pub use gostring::{type_go_string, value_go_string};
pub use key::{Key, SharedTexts};
pub use map::ValueMap;
pub use number::{FloatDecimal, Number, CTY_MANTISSA_BITS, DIV_DIGITS};
pub use packed::Packed;
pub use text::Str;
pub use ty::{ObjectType, TupleTypes, Type};
pub use value::{Marks, PathStep, Value, ValueKind};
