"""A small protocol-6 provider for interop tests, written with the Python `tf` framework.

Provider `example.test/ferro/shelf` (local name `shelf`):

* resource `shelf_book`:
  - `title`  (required, changes in place)
  - `isbn`   (required, changing it replaces the book)
  - `id`     (computed: derived from the isbn)
  - `label`  (computed: recomputed from the title on every change)
  Books can be imported by id (`isbn-<isbn>`); the imported title is "imported".
* resource `shelf_bookcase`, for nested blocks of every nesting mode:
  - `name`   (required, changing it replaces the bookcase)
  - `id`     (computed: derived from the name)
  - `genre`  (computed: the provider's `defaults { genre }`, "none" when unset)
  - `shelf`  blocks (list): `label` (required), `books` (optional list of strings), and inside
    each, `divider` blocks (set) with `at` (required number)
  - `trim`   block (single): `color` (required)
  - `slot`   blocks (map, one label): `size` (optional number)
* resource `shelf_note`, whose remote object is a file (so tests can change it outside):
  - `path`   (required, changing it replaces the note): the file, relative to the working
    directory
  - `text`   (required): the file's content; a read returns what the file holds (drift
    when it was edited), and a missing file is an object deleted outside
  - `id`     (computed: the path)
* data source `shelf_catalog`: echoes `shelf` (required) and computes `size` = its length.
* provider configuration: `owner` (optional) and a `defaults` block (single) with `genre`.

The provider keeps no external state: reads return what is stored in state, so every result
is deterministic.
"""

import copy
from typing import Optional, Type

from tf import provider as p
from tf.gen import tfplugin_pb2 as pb
from tf import schema, types
from tf.iface import Config, CreateContext, DeleteContext, ImportContext, PlanContext, ReadContext, ReadDataContext, State, UpdateContext, UpgradeContext
from tf.runner import run_provider
from tf.types import Unknown
from tf.utils import Diagnostics


class ShelfProvider(p.Provider):
    def full_name(self) -> str:
        return "example.test/ferro/shelf"

    def get_model_prefix(self) -> str:
        return "shelf_"

    def get_provider_schema(self, diags: Diagnostics) -> schema.Schema:
        return schema.Schema(
            attributes=[schema.Attribute("owner", types.String(), optional=True)],
            block_types=[Nested("defaults", pb.Schema.NestedBlock.NestingMode.SINGLE, [schema.Attribute("genre", types.String(), optional=True)])],
        )

    def validate_config(self, diags: Diagnostics, config: Config):
        if config.get("owner") == "nobody":
            diags.add_error("Invalid owner", "The owner may not be \"nobody\".")

    def configure_provider(self, diags: Diagnostics, config: Config):
        self.owner = config.get("owner") or "anonymous"
        self.genre = (config.get("defaults") or {}).get("genre") or "none"

    def get_data_sources(self) -> list[Type[p.DataSource]]:
        return [Catalog]

    def get_resources(self) -> list[Type[p.Resource]]:
        return [Book, Bookcase, Note]


def label_for(title: str) -> str:
    return f"Book: {title}"


class Book(p.Resource):
    def __init__(self, provider: ShelfProvider):
        self.provider = provider

    @classmethod
    def get_name(cls) -> str:
        return "book"

    @classmethod
    def get_schema(cls) -> schema.Schema:
        return schema.Schema(
            attributes=[
                schema.Attribute("title", types.String(), required=True),
                schema.Attribute("isbn", types.String(), required=True, requires_replace=True),
                schema.Attribute("id", types.String(), computed=True),
                schema.Attribute("label", types.String(), computed=True),
            ]
        )

    def create(self, ctx: CreateContext, planned: State) -> Optional[State]:
        out = copy.deepcopy(planned)
        out["id"] = f"isbn-{planned['isbn']}"
        out["label"] = label_for(planned["title"])
        return out

    def read(self, ctx: ReadContext, current: State) -> Optional[State]:
        return current

    def plan(self, ctx: PlanContext, current: Optional[State], planned: State) -> Optional[State]:
        # The label follows the title: unknown until apply whenever the title changes.
        if current is not None and planned.get("title") != current.get("title"):
            planned = copy.deepcopy(planned)
            planned["label"] = Unknown
        return planned

    def update(self, ctx: UpdateContext, current: State, planned: State) -> Optional[State]:
        out = copy.deepcopy(planned)
        out["id"] = current["id"]
        out["label"] = label_for(planned["title"])
        return out

    def delete(self, ctx: DeleteContext, current: State):
        return None

    def upgrade(self, ctx: UpgradeContext, version: int, old: State) -> Optional[State]:
        return old

    def import_(self, ctx: ImportContext, id: str) -> Optional[State]:
        if not id.startswith("isbn-"):
            ctx.diagnostics.add_error("Invalid import id", f"Book ids look like isbn-NNN, not {id!r}.")
            return None
        return {"id": id, "isbn": id[len("isbn-"):], "title": "imported", "label": label_for("imported")}


class Nested(schema.NestedBlock):
    """A nested block type with any nesting mode (the framework's own classes cover sets only).

    Block values travel as plain Python structures (lists for list and set blocks, dicts for
    single and map blocks), so encoding and decoding leave them as they are.
    """

    def __init__(self, type_name: str, nesting: int, attributes: list, block_types: Optional[list] = None):
        super().__init__(type_name, schema.NestMode.Set, schema.Block(attributes=attributes, block_types=block_types or []))
        self.nesting = nesting

    def to_pb(self):
        out = super().to_pb()
        out.nesting = self.nesting
        return out

    def encode(self, value):
        return value

    def decode(self, value):
        return value

    def semantically_equal(self, a_decoded, b_decoded) -> bool:
        return a_decoded == b_decoded


class Bookcase(p.Resource):
    def __init__(self, provider: ShelfProvider):
        self.provider = provider

    @classmethod
    def get_name(cls) -> str:
        return "bookcase"

    @classmethod
    def get_schema(cls) -> schema.Schema:
        mode = pb.Schema.NestedBlock.NestingMode
        divider = Nested("divider", mode.SET, [schema.Attribute("at", types.Number(), required=True)])
        return schema.Schema(
            attributes=[
                schema.Attribute("name", types.String(), required=True, requires_replace=True),
                schema.Attribute("id", types.String(), computed=True),
                schema.Attribute("genre", types.String(), computed=True),
            ],
            block_types=[
                Nested(
                    "shelf",
                    mode.LIST,
                    [schema.Attribute("label", types.String(), required=True), schema.Attribute("books", types.List(types.String()), optional=True)],
                    [divider],
                ),
                Nested("trim", mode.SINGLE, [schema.Attribute("color", types.String(), required=True)]),
                Nested("slot", mode.MAP, [schema.Attribute("size", types.Number(), optional=True)]),
            ],
        )

    def create(self, ctx: CreateContext, planned: State) -> Optional[State]:
        out = copy.deepcopy(planned)
        out["id"] = f"case-{planned['name']}"
        out["genre"] = self.provider.genre
        return out

    def read(self, ctx: ReadContext, current: State) -> Optional[State]:
        return current

    def plan(self, ctx: PlanContext, current: Optional[State], planned: State) -> Optional[State]:
        return planned

    def update(self, ctx: UpdateContext, current: State, planned: State) -> Optional[State]:
        out = copy.deepcopy(planned)
        out["id"] = current["id"]
        out["genre"] = self.provider.genre
        return out

    def delete(self, ctx: DeleteContext, current: State):
        return None

    def upgrade(self, ctx: UpgradeContext, version: int, old: State) -> Optional[State]:
        return old


class Note(p.Resource):
    def __init__(self, provider: ShelfProvider):
        self.provider = provider

    @classmethod
    def get_name(cls) -> str:
        return "note"

    @classmethod
    def get_schema(cls) -> schema.Schema:
        return schema.Schema(
            attributes=[
                schema.Attribute("path", types.String(), required=True, requires_replace=True),
                schema.Attribute("text", types.String(), required=True),
                schema.Attribute("id", types.String(), computed=True),
            ]
        )

    def create(self, ctx: CreateContext, planned: State) -> Optional[State]:
        with open(planned["path"], "w") as f:
            f.write(planned["text"])
        out = copy.deepcopy(planned)
        out["id"] = planned["path"]
        return out

    def read(self, ctx: ReadContext, current: State) -> Optional[State]:
        try:
            with open(current["path"]) as f:
                text = f.read()
        except FileNotFoundError:
            return None
        out = copy.deepcopy(current)
        out["text"] = text
        return out

    def plan(self, ctx: PlanContext, current: Optional[State], planned: State) -> Optional[State]:
        return planned

    def update(self, ctx: UpdateContext, current: State, planned: State) -> Optional[State]:
        with open(planned["path"], "w") as f:
            f.write(planned["text"])
        out = copy.deepcopy(planned)
        out["id"] = current["id"]
        return out

    def delete(self, ctx: DeleteContext, current: State):
        try:
            import os
            os.remove(current["path"])
        except FileNotFoundError:
            pass
        return None

    def upgrade(self, ctx: UpgradeContext, version: int, old: State) -> Optional[State]:
        return old


class Catalog(p.DataSource):
    def __init__(self, provider: ShelfProvider):
        self.provider = provider

    @classmethod
    def get_name(cls) -> str:
        return "catalog"

    @classmethod
    def get_schema(cls) -> schema.Schema:
        return schema.Schema(
            attributes=[
                schema.Attribute("shelf", types.List(types.String()), required=True),
                schema.Attribute("size", types.Number(), computed=True),
            ]
        )

    def read(self, ctx: ReadDataContext, config: Config) -> Optional[State]:
        return {"shelf": config["shelf"], "size": len(config["shelf"])}


if __name__ == "__main__":
    run_provider(ShelfProvider())
