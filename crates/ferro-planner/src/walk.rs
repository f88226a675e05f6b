//! The plan walk: variables, then every item in dependency order; resources are expanded into
//! instances, refreshed, planned by their provider and given an action.

use crate::config_value::{eval_body, mark_schema_sensitive};
use crate::objchange::{assert_plan_valid, proposed_new};
use crate::providers::Providers;
use crate::scope::EvalTree;
use crate::scope::{InstanceCtx, ModuleEval};
use crate::statecodec::{apply_sensitive_paths, base64_decode};
use ferro_addrs::{
    AbsProviderConfig, AbsResource, AbsResourceInstance, ConfigResource, InstanceKey,
    ModuleInstance, Resource, ResourceMode,
};
use ferro_db::{file_hir, module_index, Db, Workspace};
use ferro_db::{item_graph, ItemId};
use ferro_diag::{Diagnostic, Span};
use ferro_hir::{ExprId, Reference, ResourceDecl};
use ferro_plan::{
    Action, ActionReason, ConfigSnapshot, Expansion, OutputChange, Plan, PlanMode,
    ResourceInstanceChange, StateIdentity, PLAN_FORMAT_VERSION,
};
use ferro_provider::{
    PlanRequest, ProviderDiagnostic, ReadDataRequest, ReadRequest, Severity, UpgradeRequest,
};
use ferro_state::State;
use ferro_value::convert::convert;
use ferro_value::schema::Schema;
use ferro_value::{json, PathStep, Type, Value, ValueKind};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A variable value given on the command line or in a file, before type conversion.
#[derive(Debug, Clone)]
pub struct RawVariable {
    pub value: Value,
    /// Where it came from, for messages (`-var`, a file name, an environment variable).
    pub origin: String,
    pub span: Option<Span>,
}

#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    pub destroy: bool,
    pub refresh: bool,
    pub replace: Vec<AbsResourceInstance>,
}

pub struct PlanInput<'a> {
    pub db: &'a dyn Db,
    pub ws: Workspace,
    pub files: Vec<(String, String)>,
    pub state: Option<State>,
    pub variables: BTreeMap<String, RawVariable>,
    pub providers: &'a Providers,
    pub options: PlanOptions,
    pub cwd: String,
}

/// Convert raw variable values to their declared types; report missing and undeclared ones.
pub fn prepare_variables(
    db: &dyn Db,
    ws: Workspace,
    raw: &BTreeMap<String, RawVariable>,
) -> (BTreeMap<String, Value>, Vec<Diagnostic>) {
    let index = module_index(db, ws.root(db));
    let mut out = BTreeMap::new();
    let mut diags = Vec::new();
    for (name, rv) in raw {
        if !index.variables.contains_key(name) {
            diags.push(
                Diagnostic::error("undeclared-variable", "Value for undeclared variable")
                    .with_detail(format!("A variable named {name:?} was assigned by {}, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", rv.origin))
                    .with_span_opt(rv.span),
            );
        }
    }
    for (name, item) in &index.variables {
        let hir = file_hir(db, item.file);
        let var = &hir.variables[item.index];
        let (value, span) = match raw.get(name) {
            Some(rv) => (rv.value.clone(), rv.span.or(Some(var.span))),
            None => match var.default {
                Some(d) => {
                    let tree = EvalTree::new(db, ws, BTreeMap::new(), true, String::new());
                    let (v, ds) = tree.root().eval(item.file, d, &InstanceCtx::default());
                    diags.extend(ds);
                    (v, hir.span(d))
                }
                None => {
                    diags.push(
                        Diagnostic::error("missing-variable", "No value for required variable")
                            .with_detail(format!("The root module input variable {name:?} is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable."))
                            .with_span(var.span),
                    );
                    continue;
                }
            },
        };
        let v = match crate::scope::convert_variable(var, value, span, &ModuleInstance::root()) {
            Ok(v) => v,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        let source = (item.file.path(db).as_str(), item.file.text(db).as_str());
        if let Err(d) = crate::validation::check_validations(hir, source, var, &v) {
            diags.push(d);
            continue;
        }
        out.insert(name.clone(), v);
    }
    (out, diags)
}

/// The source range a provider's attribute path points at inside a resource body: the attribute
/// (or nested block) it names, else the closest enclosing block.
pub fn path_span(body: &ferro_hir::BlockBody, path: &[PathStep]) -> Option<Span> {
    let (first, rest) = path.split_first()?;
    let PathStep::Attr(name) = first else {
        return None;
    };
    if let Some(a) = body.attrs.iter().find(|a| &a.name == name) {
        return Some(a.span);
    }
    let blocks: Vec<&ferro_hir::HirBlock> = body.blocks.iter().filter(|b| &b.ty == name).collect();
    let (block, rest) = match rest.split_first() {
        Some((PathStep::Index(k), tail)) => {
            let chosen = match (k.as_number().and_then(|n| n.to_i64()), k.as_str()) {
                (Some(i), _) => blocks.get(i as usize).copied(),
                (None, Some(label)) => blocks
                    .iter()
                    .copied()
                    .find(|b| b.labels.first().map(String::as_str) == Some(label)),
                _ => None,
            };
            (chosen.or(blocks.first().copied()), tail)
        }
        _ => (blocks.first().copied(), rest),
    };
    let block = block?;
    path_span(&block.body, rest).or(Some(block.span))
}

/// A provider diagnostic for a resource: pointed at the attribute it names when it names one.
pub(crate) fn resource_diag(d: &ProviderDiagnostic, addr: &str, decl: &ResourceDecl) -> Diagnostic {
    let span = d
        .attribute
        .as_deref()
        .and_then(|p| path_span(&decl.body, p))
        .unwrap_or(decl.span);
    provider_diag(d, addr, Some(span))
}

pub(crate) fn provider_diag(d: &ProviderDiagnostic, addr: &str, span: Option<Span>) -> Diagnostic {
    let base = match d.severity {
        Severity::Error => Diagnostic::error("provider-error", d.summary.clone()),
        Severity::Warning => Diagnostic::warning("provider-warning", d.summary.clone()),
    };
    base.with_detail(d.detail.clone())
        .with_address(addr)
        .with_span_opt(span)
}

struct PriorObject {
    value: Value,
    private: Vec<u8>,
    tainted: bool,
    schema_version: u64,
}

struct Walk<'a> {
    input: &'a PlanInput<'a>,
    tree: &'a EvalTree<'a>,
    diags: Vec<Diagnostic>,
    changes: Vec<ResourceInstanceChange>,
    outputs: Vec<OutputChange>,
    refreshed: State,
    expansions: BTreeMap<AbsResource, Expansion>,
    transitive: HashMap<ConfigResource, BTreeSet<ConfigResource>>,
}

/// Make a plan. Returns None (with diagnostics) when planning failed.
pub fn plan(input: &PlanInput<'_>) -> (Option<Plan>, Vec<Diagnostic>) {
    let db = input.db;
    let ws = input.ws;
    let (vars, mut diags) = prepare_variables(db, ws, &input.variables);
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    let graph = match item_graph(db, ws) {
        Ok(g) => g,
        Err(d) => {
            diags.push(d.clone());
            return (None, diags);
        }
    };
    let prior = input
        .state
        .clone()
        .unwrap_or_else(|| State::new(String::new()));
    let tree = EvalTree::new(db, ws, vars.clone(), true, input.cwd.clone());
    let mut w = Walk {
        input,
        tree: &tree,
        diags,
        changes: Vec::new(),
        outputs: Vec::new(),
        refreshed: prior.clone(),
        expansions: BTreeMap::new(),
        transitive: HashMap::new(),
    };
    let configured = crate::configure::configure_providers(&tree, input.providers);
    let failed = configured.iter().any(Diagnostic::is_error);
    w.diags.extend(configured);
    if failed {
        return (None, std::mem::take(&mut w.diags));
    }
    for item in &graph.order {
        let tree = w.tree;
        if let ItemId::Resource(r) = &item.id {
            let cr = ConfigResource {
                module: tree.statics[item.node].path.clone(),
                resource: r.clone(),
            };
            let direct = graph.resource_deps.get(&cr).cloned().unwrap_or_default();
            let mut all = direct.clone();
            for d in &direct {
                if let Some(t) = w.transitive.get(d) {
                    all.extend(t.iter().cloned());
                }
            }
            w.transitive.insert(cr, all);
        }
        for path in tree.instances_of(item.node) {
            let Some(m) = tree.scope(&path) else {
                continue;
            };
            match &item.id {
                ItemId::Var(n) => {
                    if !path.is_root() {
                        if let Err(d) = m.var(n) {
                            w.diags.push(d);
                        }
                    }
                }
                ItemId::Local(n) => {
                    let li = &m.index.locals[n];
                    let hir = file_hir(db, li.file);
                    let (_, ds) =
                        m.eval(li.file, hir.locals[li.index].expr, &InstanceCtx::default());
                    w.diags.extend(ds);
                }
                ItemId::Resource(r) => w.resource(&m, r),
                ItemId::Output(n) => w.output(&m, n),
                ItemId::ModuleCall(n) => w.module_call(&m, n),
            }
        }
    }
    w.orphans();
    let mut diags = std::mem::take(&mut w.diags);
    dedup(&mut diags);
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    w.changes
        .sort_by(|a, b| (&a.addr, &a.deposed).cmp(&(&b.addr, &b.deposed)));
    let graph_ir = crate::graph::build_graph(&w.changes, &w.outputs, &w.transitive, &prior);
    let module_expansions = tree
        .call_expansions()
        .into_iter()
        .map(|((path, name), e)| ((path, name), (e.expansion, e.keys)))
        .collect();
    let plan = Plan {
        format_version: PLAN_FORMAT_VERSION,
        mode: if input.options.destroy {
            PlanMode::Destroy
        } else {
            PlanMode::Normal
        },
        config: ConfigSnapshot {
            files: input.files.clone(),
        },
        variables: vars,
        prior_state: w.refreshed,
        state_identity: input.state.as_ref().map(|s| StateIdentity {
            lineage: s.lineage.clone(),
            serial: s.serial,
        }),
        changes: w.changes,
        outputs: w.outputs,
        graph: graph_ir,
        expansions: w.expansions,
        module_expansions,
    };
    (Some(plan), diags)
}

/// Drop repeated diagnostics. A variable's value error is about the variable, whichever
/// resource's evaluation met it first, so it is reported once.
fn dedup(diags: &mut Vec<Diagnostic>) {
    let mut seen = BTreeSet::new();
    diags.retain(|d| {
        let address = if d.code == "invalid-variable-value" {
            None
        } else {
            d.address.clone()
        };
        seen.insert((d.span, d.summary.clone(), d.detail.clone(), address))
    });
}

fn value_at<'v>(v: &'v Value, path: &[PathStep]) -> Option<&'v Value> {
    let mut cur = v;
    for s in path {
        cur = match (s, &cur.kind) {
            (PathStep::Attr(a), ValueKind::Object(m)) => m.get(a)?,
            (PathStep::Index(k), ValueKind::Map(_, m) | ValueKind::Object(m)) => {
                m.get(k.as_str()?)?
            }
            (PathStep::Index(k), ValueKind::List(_, es) | ValueKind::Tuple(es)) => {
                es.get(k.as_number()?.to_i64()? as usize)?
            }
            _ => return None,
        };
    }
    Some(cur)
}

impl Walk<'_> {
    /// A resource's declaration, its body read against the schema (see `ModuleEval::resource`).
    fn decl<'m>(
        m: &ModuleEval<'m>,
        r: &Resource,
    ) -> (ferro_db::SourceFile, std::borrow::Cow<'m, ResourceDecl>) {
        let item = m.index.resources[r];
        (item.file, m.resource(item))
    }

    /// A module call in one module instance: evaluate its `count`/`for_each` and create the
    /// child instances.
    fn module_call(&mut self, m: &ModuleEval<'_>, name: &str) {
        let item = m.index.module_calls[name];
        let call = &m.hir(item.file).module_calls[item.index];
        if m.statics().children.get(name).is_none() {
            return;
        }
        let (expansion, keys) = if self.input.options.destroy {
            (Expansion::Single, Vec::new())
        } else {
            match self.expand(m, item.file, call.count, call.for_each) {
                Some(x) => x,
                None => return,
            }
        };
        self.tree.expand_call(m.path(), name, expansion, keys);
    }

    fn expand(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        count: Option<ExprId>,
        for_each: Option<ExprId>,
    ) -> Option<(Expansion, Vec<(InstanceKey, Option<Value>)>)> {
        let hir = file_hir(self.input.db, file);
        if let Some(c) = count {
            let (v, ds) = m.eval(file, c, &InstanceCtx::default());
            let failed = ds.iter().any(Diagnostic::is_error);
            self.diags.extend(ds);
            if failed {
                return None;
            }
            let bad = |detail: &str| {
                Diagnostic::error("invalid-count", "Invalid count argument")
                    .with_detail(detail.to_string())
                    .with_span_opt(hir.span(c))
            };
            if !v.is_wholly_known() {
                self.diags.push(bad("The \"count\" value depends on resource attributes that cannot be determined until apply, so ferro cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on."));
                return None;
            }
            if v.is_null() {
                self.diags.push(bad(
                    "The given \"count\" argument value is null. An integer is required.",
                ));
                return None;
            }
            let n = match convert(&v.unmarked(), &Type::Number)
                .ok()
                .and_then(|n| n.as_number().cloned())
            {
                Some(n) => n,
                None => {
                    self.diags.push(bad(&format!("The given \"count\" argument value is unsuitable: a number is required, but have {}.", v.ty().friendly_name())));
                    return None;
                }
            };
            let Some(n) = n.to_i64().filter(|_| n.is_integer()) else {
                self.diags.push(bad("The given \"count\" argument value is unsuitable: the count must be a whole number."));
                return None;
            };
            if n < 0 {
                self.diags.push(bad("The given \"count\" argument value is unsuitable: must be greater than or equal to zero."));
                return None;
            }
            return Some((
                Expansion::Count,
                (0..n).map(|i| (InstanceKey::Int(i), None)).collect(),
            ));
        }
        if let Some(f) = for_each {
            let (v, ds) = m.eval(file, f, &InstanceCtx::default());
            let failed = ds.iter().any(Diagnostic::is_error);
            self.diags.extend(ds);
            if failed {
                return None;
            }
            let bad = |detail: String| {
                Diagnostic::error("invalid-for-each", "Invalid for_each argument")
                    .with_detail(detail)
                    .with_span_opt(hir.span(f))
            };
            if v.is_unknown() || (matches!(v.kind, ValueKind::Set(..)) && !v.is_wholly_known()) {
                self.diags.push(bad("The \"for_each\" value depends on resource attributes that cannot be determined until apply, so ferro cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the for_each depends on.".into()));
                return None;
            }
            if v.contains_sensitive() && v.as_entries().is_none() || v.is_sensitive() {
                self.diags.push(bad("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.".into()));
                return None;
            }
            let keys = match &v.kind {
                ValueKind::Null(_) => {
                    self.diags.push(bad("The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null. A map, or set of strings is allowed.".into()));
                    return None;
                }
                ValueKind::Map(_, m) | ValueKind::Object(m) => m
                    .iter()
                    .map(|(k, x)| (InstanceKey::Str(k.clone()), Some(x.clone())))
                    .collect(),
                ValueKind::Set(_, es) => {
                    let mut keys = Vec::new();
                    for e in es.iter() {
                        match e.as_str() {
                            Some(s) => {
                                keys.push((InstanceKey::Str(s.to_string()), Some(e.clone())))
                            }
                            None => {
                                self.diags.push(bad(format!("The given \"for_each\" argument value is unsuitable: \"for_each\" supports maps and sets of strings, but you have provided a set containing type {}.", e.ty().friendly_name())));
                                return None;
                            }
                        }
                    }
                    keys
                }
                _ => {
                    self.diags.push(bad(format!("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.", v.ty().friendly_name())));
                    return None;
                }
            };
            return Some((Expansion::ForEach, keys));
        }
        Some((Expansion::Single, vec![(InstanceKey::None, None)]))
    }

    fn planner(&self) -> InstancePlanner<'_> {
        InstancePlanner {
            providers: self.input.providers,
            options: &self.input.options,
            refreshed: &self.refreshed,
        }
    }

    fn merge(&mut self, acc: Acc) {
        self.diags.extend(acc.diags);
        self.changes.extend(acc.changes);
        for (abs, cfg, key, obj) in acc.sets {
            self.refreshed.set_current(&abs, &cfg, &key, obj);
        }
    }

    fn prior_object(
        &mut self,
        abs: &AbsResource,
        key: &InstanceKey,
        cfg: &AbsProviderConfig,
        schema: &Schema,
    ) -> Option<PriorObject> {
        let mut acc = Acc::default();
        let out = self.planner().prior_object(abs, key, cfg, schema, &mut acc);
        self.merge(acc);
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn push_change(
        &mut self,
        addr: AbsResourceInstance,
        cfg: &AbsProviderConfig,
        schema: &Schema,
        action: Action,
        reason: Option<ActionReason>,
        before: Value,
        after: Value,
        requires_replace: Vec<Vec<PathStep>>,
        planned_private: Vec<u8>,
        dependencies: Vec<String>,
        cbd: bool,
    ) {
        let mut acc = Acc::default();
        self.planner().push_change(
            addr,
            cfg,
            schema,
            action,
            reason,
            before,
            after,
            requires_replace,
            planned_private,
            dependencies,
            cbd,
            &mut acc,
        );
        self.merge(acc);
    }

    fn resource(&mut self, m: &ModuleEval<'_>, r: &Resource) {
        let (file, decl) = Self::decl(m, r);
        let decl = decl.into_owned();
        let abs = AbsResource {
            module: m.path().clone(),
            resource: r.clone(),
        };
        let cr = abs.config();
        if let Some(d) = self_reference(m.hir(file), &decl) {
            self.diags.push(d);
            m.set_resource(r.clone(), Value::dynamic_unknown());
            return;
        }
        let Some(cfg) = self.input.providers.by_resource.get(&cr).cloned() else {
            return;
        };
        let Some(schema) = self.input.providers.resource_schema(&cfg, r).cloned() else {
            return;
        };
        if r.mode == ResourceMode::Data {
            if !self.input.options.destroy {
                self.data_resource(m, file, &decl, &abs, &cfg, &schema);
            }
            return;
        }
        let (expansion, keys) = if self.input.options.destroy {
            (Expansion::Single, Vec::new())
        } else {
            match self.expand(m, file, decl.count, decl.for_each) {
                Some(x) => x,
                None => {
                    m.set_resource(r.clone(), Value::dynamic_unknown());
                    return;
                }
            }
        };
        if !self.input.options.destroy {
            self.expansions.insert(abs.clone(), expansion);
        }
        let deps: Vec<String> = self
            .transitive
            .get(&cr)
            .map(|s| s.iter().map(|d| d.to_string()).collect())
            .unwrap_or_default();
        let mut instance_values: Vec<(InstanceKey, Value)> = Vec::new();
        let wanted: BTreeSet<InstanceKey> = keys.iter().map(|(k, _)| k.clone()).collect();
        // Configuration values first (in order), then the provider calls of all instances at
        // once, merged back in instance order.
        let mut work: Vec<(InstanceKey, AbsResourceInstance, Option<Value>)> = Vec::new();
        for (key, each_value) in keys {
            let inst = InstanceCtx::for_key(&key, each_value);
            let addr = abs.instance(key.clone());
            let (config, ds) = eval_body(m, file, &decl.body, &schema.block, &inst);
            let failed = ds.iter().any(Diagnostic::is_error);
            self.diags.extend(ds.into_iter().map(|d| {
                if d.address.is_none() {
                    d.with_address(addr.to_string())
                } else {
                    d
                }
            }));
            work.push((key, addr, if failed { None } else { Some(config) }));
        }
        let planner = self.planner();
        let results = parallel_map(work, PLAN_PARALLELISM, |(key, addr, config)| {
            let mut acc = Acc::default();
            let v = match config {
                None => Value::unknown(schema.block.implied_type()),
                Some(config) => {
                    let prior = planner.prior_object(&abs, &key, &cfg, &schema, &mut acc);
                    let v = planner.plan_instance(
                        &decl,
                        &cfg,
                        &schema,
                        addr,
                        config,
                        prior,
                        deps.clone(),
                        &mut acc,
                    );
                    mark_schema_sensitive(&schema.block, &v)
                }
            };
            (key, v, acc)
        });
        for (key, v, acc) in results {
            self.merge(acc);
            instance_values.push((key, v));
        }
        // Existing instances the configuration no longer wants are destroyed, and so are objects
        // left deposed by an earlier failed create_before_destroy replacement. (In destroy mode
        // `orphans` plans every object in state instead.)
        if let (false, Some(rs)) = (
            self.input.options.destroy,
            self.refreshed.resources.get(&abs).cloned(),
        ) {
            for (key, inst) in &rs.instances {
                if !wanted.contains(key) && inst.current.is_some() {
                    if let Some(prior) = self.prior_object(&abs, key, &rs.provider, &schema) {
                        self.push_delete(
                            abs.instance(key.clone()),
                            &rs.provider,
                            &schema,
                            prior.value,
                            None,
                            &decl.lifecycle,
                        );
                    }
                }
                for (dk, obj) in &inst.deposed {
                    if let Ok(v) =
                        json::value_from_json(&obj.attributes, &schema.block.implied_type())
                    {
                        self.push_delete(
                            abs.instance(key.clone()),
                            &rs.provider,
                            &schema,
                            v,
                            Some(dk.clone()),
                            &ferro_hir::Lifecycle::default(),
                        );
                    }
                }
            }
        }
        m.set_resource(
            r.clone(),
            resource_value(expansion, instance_values, &schema),
        );
    }

    /// A data resource: read now when its configuration is known and nothing it explicitly
    /// depends on has changes pending; otherwise plan a read during apply.
    fn data_resource(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        decl: &ResourceDecl,
        abs: &AbsResource,
        cfg: &AbsProviderConfig,
        schema: &Schema,
    ) {
        let r = &abs.resource;
        let Some((expansion, keys)) = self.expand(m, file, decl.count, decl.for_each) else {
            m.set_resource(r.clone(), Value::dynamic_unknown());
            return;
        };
        self.expansions.insert(abs.clone(), expansion);
        let Some(provider) = self.input.providers.get(cfg).cloned() else {
            return;
        };
        let explicit: BTreeSet<Resource> = decl
            .depends_on
            .iter()
            .filter_map(|(d, _)| {
                if let Reference::Resource(x) = d {
                    Some(x.clone())
                } else {
                    None
                }
            })
            .collect();
        let pending = !explicit.is_empty()
            && self.changes.iter().any(|c| {
                c.action != Action::NoOp
                    && c.addr.module == abs.module
                    && explicit.contains(&c.addr.resource.resource)
            });
        let deps: Vec<String> = self
            .transitive
            .get(&abs.config())
            .map(|s| s.iter().map(|d| d.to_string()).collect())
            .unwrap_or_default();
        let wanted: BTreeSet<InstanceKey> = keys.iter().map(|(k, _)| k.clone()).collect();
        let mut instance_values: Vec<(InstanceKey, Value)> = Vec::new();
        for (key, each_value) in keys {
            let inst = InstanceCtx::for_key(&key, each_value);
            let addr = abs.instance(key.clone());
            let addr_s = addr.to_string();
            let (config, ds) = eval_body(m, file, &decl.body, &schema.block, &inst);
            let failed = ds.iter().any(Diagnostic::is_error);
            self.diags.extend(ds.into_iter().map(|d| {
                if d.address.is_none() {
                    d.with_address(addr_s.clone())
                } else {
                    d
                }
            }));
            if failed {
                instance_values.push((key, Value::unknown(schema.block.implied_type())));
                continue;
            }
            let (plain_cfg, cfg_marks) = config.deep_unmark();
            for d in provider.validate_data_source_config(&r.ty, &plain_cfg) {
                self.diags.push(resource_diag(&d, &addr_s, decl));
            }
            if !plain_cfg.is_wholly_known() || pending {
                let planned = planned_data_object(&schema.block, &config);
                let reason = if pending {
                    ActionReason::ReadBecauseDependencyPending
                } else {
                    ActionReason::ReadBecauseConfigUnknown
                };
                let before = self
                    .prior_data(abs, &key, schema)
                    .unwrap_or_else(|| Value::null(schema.block.implied_type()));
                self.push_change(
                    addr,
                    cfg,
                    schema,
                    Action::Read,
                    Some(reason),
                    before,
                    planned.clone(),
                    Vec::new(),
                    Vec::new(),
                    deps.clone(),
                    false,
                );
                instance_values.push((key, mark_schema_sensitive(&schema.block, &planned)));
                continue;
            }
            let resp = provider.read_data_source(ReadDataRequest {
                type_name: &r.ty,
                config: &plain_cfg,
            });
            let mut errored = false;
            for d in &resp.diagnostics {
                errored |= d.severity == Severity::Error;
                self.diags.push(resource_diag(d, &addr_s, decl));
            }
            if errored {
                instance_values.push((key, Value::unknown(schema.block.implied_type())));
                continue;
            }
            let state = match convert(&resp.state, &schema.block.implied_type()) {
                Ok(v) if v.is_wholly_known() && !v.is_null() => v,
                _ => {
                    self.diags.push(
                        Diagnostic::error("provider-invalid-data", "Provider produced invalid object")
                            .with_detail(format!("Provider {} produced an invalid value for {addr_s}: the object must be known, not null, and conform to the data source's schema.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", cfg.provider))
                            .with_address(addr_s.clone()),
                    );
                    instance_values.push((key, Value::unknown(schema.block.implied_type())));
                    continue;
                }
            };
            let value = carry_marks(&state, &config, cfg_marks);
            match crate::statecodec::encode_object(schema, &value, &[], deps.clone(), false, false)
            {
                Ok(obj) => self.refreshed.set_current(abs, cfg, &key, Some(obj)),
                Err(e) => self.diags.push(
                    Diagnostic::error("provider-invalid-data", "Provider produced invalid object")
                        .with_detail(format!(
                            "The object read for {addr_s} cannot be stored: {e}."
                        ))
                        .with_address(addr_s.clone()),
                ),
            }
            instance_values.push((key, mark_schema_sensitive(&schema.block, &value)));
        }
        // Instances the configuration no longer has are dropped from state (no provider call).
        if let Some(rs) = self.refreshed.resources.get(abs).cloned() {
            for (key, inst) in &rs.instances {
                if !wanted.contains(key) {
                    if let Some(obj) = &inst.current {
                        if let Ok(v) =
                            json::value_from_json(&obj.attributes, &schema.block.implied_type())
                        {
                            self.push_delete(
                                abs.instance(key.clone()),
                                &rs.provider,
                                schema,
                                v,
                                None,
                                &ferro_hir::Lifecycle::default(),
                            );
                        }
                    }
                }
            }
        }
        m.set_resource(
            r.clone(),
            resource_value(expansion, instance_values, schema),
        );
    }

    /// The object a data resource had in state, if any (data sources have no upgrade step).
    fn prior_data(&self, abs: &AbsResource, key: &InstanceKey, schema: &Schema) -> Option<Value> {
        let obj = self.refreshed.current_object(abs, key)?;
        json::value_from_json(&obj.attributes, &schema.block.implied_type()).ok()
    }

    fn push_delete(
        &mut self,
        addr: AbsResourceInstance,
        cfg: &AbsProviderConfig,
        schema: &Schema,
        before: Value,
        deposed: Option<String>,
        lc: &ferro_hir::Lifecycle,
    ) {
        if lc.prevent_destroy {
            self.diags.push(
                Diagnostic::error("prevent-destroy", "Instance cannot be destroyed")
                    .with_detail(format!("Resource {addr} has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target flag."))
                    .with_address(addr.to_string()),
            );
        }
        self.changes.push(ResourceInstanceChange {
            addr,
            deposed,
            provider: cfg.clone(),
            action: Action::Delete,
            reason: None,
            after: Value::null(before.ty()),
            before,
            requires_replace: Vec::new(),
            planned_private: Vec::new(),
            schema_version: schema.version,
            dependencies: Vec::new(),
            create_before_destroy: false,
        });
    }

    fn output(&mut self, m: &ModuleEval<'_>, name: &str) {
        if !m.path().is_root() {
            // A child module's output: evaluated for its errors; its value reaches the parent
            // through `module.NAME` (Terraform keeps only root outputs in state).
            match m.output(name) {
                Err(d) => self.diags.push(d),
                Ok(v) => {
                    let item = m.index.outputs[name];
                    let o = &m.hir(item.file).outputs[item.index];
                    if !o.sensitive && v.contains_sensitive() {
                        let span = o
                            .value
                            .and_then(|e| m.hir(item.file).span(e))
                            .or(Some(o.span));
                        self.diags.push(sensitive_output_error(span));
                    }
                }
            }
            return;
        }
        let item = m.index.outputs[name];
        let hir = file_hir(self.input.db, item.file);
        let o = &hir.outputs[item.index];
        let before = self.refreshed.outputs.get(name).and_then(|os| {
            let ty = json::type_from_json(&os.ty).ok()?;
            json::value_from_json(&os.value, &ty).ok()
        });
        if self.input.options.destroy {
            if let Some(b) = before {
                self.outputs.push(OutputChange {
                    name: name.to_string(),
                    action: Action::Delete,
                    after: Value::null(b.ty()),
                    before: b,
                    sensitive: o.sensitive,
                });
            }
            return;
        }
        let Some(e) = o.value else { return };
        let (v, ds) = m.eval(item.file, e, &InstanceCtx::default());
        let failed = ds.iter().any(Diagnostic::is_error);
        self.diags.extend(ds);
        if failed {
            return;
        }
        if v.contains_sensitive() && !o.sensitive {
            self.diags.push(sensitive_output_error(hir.span(e)));
            return;
        }
        let action = match &before {
            None => Action::Create,
            Some(b) if v.is_wholly_known() && b.deep_unmark().0 == v.deep_unmark().0 => {
                Action::NoOp
            }
            Some(_) => Action::Update,
        };
        self.outputs.push(OutputChange {
            name: name.to_string(),
            action,
            before: before.unwrap_or_else(|| Value::null(Type::Dynamic)),
            after: v,
            sensitive: o.sensitive,
        });
    }

    /// Resources in state that the configuration no longer declares are destroyed; so are
    /// outputs that no longer exist.
    fn orphans(&mut self) {
        let tree = self.tree;
        let state_resources: Vec<_> = self.refreshed.resources.values().cloned().collect();
        for rs in state_resources {
            // Configured here: its module instance exists and declares the resource.
            let scope = tree.scope(&rs.addr.module);
            let configured_here = scope
                .as_ref()
                .is_some_and(|m| m.index.resources.contains_key(&rs.addr.resource));
            if configured_here && !self.input.options.destroy {
                continue;
            }
            let is_data = rs.addr.resource.mode == ResourceMode::Data;
            let Some(schema) = self
                .input
                .providers
                .schemas
                .get(&rs.provider.provider)
                .and_then(|s| {
                    if is_data {
                        s.data_sources.get(&rs.addr.resource.ty)
                    } else {
                        s.resources.get(&rs.addr.resource.ty)
                    }
                })
                .cloned()
            else {
                self.diags.push(
                    Diagnostic::error("provider-unavailable", "Provider configuration not present")
                        .with_detail(format!("To work with {} its original provider configuration at {} is required, but it has been removed.", rs.addr, rs.provider)),
                );
                continue;
            };
            let lc = if let (true, Some(m)) = (configured_here, scope.as_ref()) {
                Self::decl(m, &rs.addr.resource).1.lifecycle.clone()
            } else {
                ferro_hir::Lifecycle::default()
            };
            for (key, inst) in &rs.instances {
                if is_data {
                    if let Some(v) = self.prior_data(&rs.addr, key, &schema) {
                        self.push_delete(
                            rs.addr.instance(key.clone()),
                            &rs.provider,
                            &schema,
                            v,
                            None,
                            &lc,
                        );
                    }
                    continue;
                }
                if inst.current.is_some() {
                    if let Some(prior) = self.prior_object(&rs.addr, key, &rs.provider, &schema) {
                        self.push_delete(
                            rs.addr.instance(key.clone()),
                            &rs.provider,
                            &schema,
                            prior.value,
                            None,
                            &lc,
                        );
                    }
                }
                for (dk, obj) in &inst.deposed {
                    let ty = schema.block.implied_type();
                    if let Ok(v) = json::value_from_json(&obj.attributes, &ty) {
                        self.push_delete(
                            rs.addr.instance(key.clone()),
                            &rs.provider,
                            &schema,
                            v,
                            Some(dk.clone()),
                            &lc,
                        );
                    }
                }
            }
        }
        if !self.input.options.destroy {
            let names: Vec<String> = self
                .refreshed
                .outputs
                .keys()
                .filter(|n| !tree.root().index.outputs.contains_key(*n))
                .cloned()
                .collect();
            for n in names {
                let os = &self.refreshed.outputs[&n];
                if let Some(b) = json::type_from_json(&os.ty)
                    .ok()
                    .and_then(|t| json::value_from_json(&os.value, &t).ok())
                {
                    self.outputs.push(OutputChange {
                        name: n,
                        action: Action::Delete,
                        after: Value::null(b.ty()),
                        before: b,
                        sensitive: os.sensitive,
                    });
                }
            }
        }
    }
}

/// A resource whose configuration refers to the resource itself (Terraform's "Self-referential
/// block"), pointing at the first such reference.
fn self_reference(hir: &ferro_hir::FileHir, decl: &ResourceDecl) -> Option<Diagnostic> {
    fn exprs(body: &ferro_hir::BlockBody, out: &mut Vec<ExprId>) {
        out.extend(body.attrs.iter().map(|a| a.expr));
        for b in &body.blocks {
            if let Some(d) = &b.dynamic {
                out.push(d.for_each);
                out.extend(d.labels.iter().copied());
            }
            exprs(&b.body, out);
        }
    }
    let mut all: Vec<ExprId> = decl
        .count
        .iter()
        .chain(decl.for_each.iter())
        .copied()
        .collect();
    exprs(&decl.body, &mut all);
    let mut found = None;
    for e in all {
        ferro_hir::walk_references(&hir.exprs, e, &mut |id, r| {
            if found.is_none() && matches!(r, Reference::Resource(x) if *x == decl.addr) {
                found = Some(id);
            }
        });
        if found.is_some() {
            break;
        }
    }
    let id = found?;
    Some(
        Diagnostic::error("self-reference", "Self-referential block")
            .with_detail(format!(
                "Configuration for {} may not refer to itself.",
                decl.addr
            ))
            .with_span_opt(hir.span(id)),
    )
}

/// A sensitive value in an output not marked sensitive (any module's, as in Terraform 1.0).
fn sensitive_output_error(span: Option<Span>) -> Diagnostic {
    Diagnostic::error("sensitive-output", "Output refers to sensitive values")
        .with_detail("To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, ferro requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true")
        .with_span_opt(span)
}

/// The value a data resource is planned to have when its read waits for apply: configured values
/// as given, every computed attribute that was not set unknown (nested blocks likewise).
pub fn planned_data_object(schema: &ferro_value::schema::Block, config: &Value) -> Value {
    if config.is_null() || !config.is_known() {
        return config.clone();
    }
    let Some(attrs) = config.as_entries() else {
        return config.clone();
    };
    let mut out = attrs.clone();
    for (name, a) in &schema.attributes {
        if a.computed && out.get(name).is_none_or(Value::is_null) {
            out.insert(
                name.clone(),
                Value::unknown(a.ty.clone()).with_marks(if a.sensitive {
                    ferro_value::Marks::SENSITIVE
                } else {
                    ferro_value::Marks::NONE
                }),
            );
        }
    }
    for (name, nb) in &schema.block_types {
        if let Some(v) = out.get(name).cloned() {
            let mapped = match (&v.kind, nb.nesting) {
                (ValueKind::List(t, es), _) => Value::list(
                    t.clone(),
                    es.iter()
                        .map(|e| planned_data_object(&nb.block, e))
                        .collect(),
                ),
                (ValueKind::Tuple(es), _) => Value::tuple(
                    es.iter()
                        .map(|e| planned_data_object(&nb.block, e))
                        .collect(),
                ),
                (ValueKind::Set(t, es), _) => Value::set(
                    t.clone(),
                    es.iter()
                        .map(|e| planned_data_object(&nb.block, e))
                        .collect(),
                ),
                (ValueKind::Map(t, m), _) => Value::map(
                    t.clone(),
                    m.iter()
                        .map(|(k, e)| (k.clone(), planned_data_object(&nb.block, e)))
                        .collect(),
                ),
                (ValueKind::Object(_), ferro_value::schema::NestingMode::Map) => Value::object(
                    v.as_entries()
                        .into_iter()
                        .flatten()
                        .map(|(k, e)| (k.clone(), planned_data_object(&nb.block, e)))
                        .collect(),
                ),
                (ValueKind::Object(_), _) => planned_data_object(&nb.block, &v),
                _ => v.clone(),
            };
            out.insert(name.clone(), mapped);
        }
    }
    Value::object(out).with_marks(config.marks)
}

/// What planning one instance produced: diagnostics, changes and refreshed state objects,
/// merged into the walk in instance order (so parallel planning stays deterministic).
#[derive(Default)]
struct Acc {
    diags: Vec<Diagnostic>,
    changes: Vec<ResourceInstanceChange>,
    sets: Vec<(
        AbsResource,
        AbsProviderConfig,
        InstanceKey,
        Option<ferro_state::ObjectState>,
    )>,
}

/// The read-only view of a walk that planning one resource instance needs; it is `Sync`, so the
/// instances of one resource are planned concurrently (their provider calls overlap).
struct InstancePlanner<'a> {
    providers: &'a Providers,
    options: &'a PlanOptions,
    refreshed: &'a State,
}

impl InstancePlanner<'_> {
    /// Decode, upgrade and (optionally) refresh the current object of an instance from state.
    fn prior_object(
        &self,
        abs: &AbsResource,
        key: &InstanceKey,
        cfg: &AbsProviderConfig,
        schema: &Schema,
        acc: &mut Acc,
    ) -> Option<PriorObject> {
        let obj = self.refreshed.current_object(abs, key)?.clone();
        let addr = abs.instance(key.clone()).to_string();
        let provider = self.providers.get(cfg)?.clone();
        if obj.schema_version > schema.version {
            // Terraform refuses to downgrade an object written by a newer provider.
            acc.diags.push(
                Diagnostic::error("newer-schema", "Resource instance managed by newer provider version")
                    .with_detail(format!("The current state of {addr} was created by a newer provider version than is currently selected. Upgrade the {} provider to work with this state.", abs.resource.implied_provider())),
            );
            return None;
        }
        let resp = provider.upgrade_resource_state(UpgradeRequest {
            type_name: &abs.resource.ty,
            version: obj.schema_version,
            raw_json: &obj.attributes,
        });
        let mut failed = false;
        for d in &resp.diagnostics {
            failed |= d.severity == Severity::Error;
            acc.diags.push(provider_diag(d, &addr, None));
        }
        if failed {
            return None;
        }
        let mut value = apply_sensitive_paths(resp.upgraded_state, &obj.sensitive_attributes);
        let private = obj
            .private
            .as_deref()
            .map(base64_decode)
            .unwrap_or_default();
        let mut private_out = private.clone();
        if self.options.refresh && abs.resource.mode == ResourceMode::Managed {
            let (plain, _) = value.deep_unmark();
            let read = provider.read_resource(ReadRequest {
                type_name: &abs.resource.ty,
                current_state: &plain,
                private: &private,
            });
            for d in &read.diagnostics {
                failed |= d.severity == Severity::Error;
                acc.diags.push(provider_diag(d, &addr, None));
            }
            if !failed && !read.new_state.is_wholly_known() {
                acc.diags.push(
                    Diagnostic::error("provider-invalid-data", "Provider produced invalid object")
                        .with_detail(format!("Provider \"{}\" returned a value for {addr} during refresh that is not wholly known.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", cfg.provider))
                        .with_address(addr.to_string()),
                );
                failed = true;
            }
            if failed {
                return None;
            }
            if read.new_state.is_null() {
                // The object is gone: forget it so it is planned for creation.
                let prov = cfg.clone();
                acc.sets.push((abs.clone(), prov, key.clone(), None));
                return None;
            }
            value = apply_sensitive_paths(read.new_state, &obj.sensitive_attributes);
            private_out = read.private;
            if let Ok(enc) = crate::statecodec::encode_object(
                schema,
                &value,
                &private_out,
                obj.dependencies.clone(),
                obj.create_before_destroy,
                obj.tainted,
            ) {
                let mut enc = enc;
                enc.sensitive_attributes = obj.sensitive_attributes.clone();
                acc.sets
                    .push((abs.clone(), cfg.clone(), key.clone(), Some(enc)));
            }
        }
        Some(PriorObject {
            value,
            private: private_out,
            tainted: obj.tainted,
            schema_version: obj.schema_version,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn plan_instance(
        &self,
        decl: &ResourceDecl,
        cfg: &AbsProviderConfig,
        schema: &Schema,
        addr: AbsResourceInstance,
        mut config: Value,
        prior: Option<PriorObject>,
        dependencies: Vec<String>,
        acc: &mut Acc,
    ) -> Value {
        let ty = schema.block.implied_type();
        let addr_s = addr.to_string();
        let Some(provider) = self.providers.get(cfg).cloned() else {
            return Value::unknown(ty);
        };
        let (plain_cfg, _) = config.deep_unmark();
        for d in provider.validate_resource_config(&addr.resource.resource.ty, &plain_cfg) {
            acc.diags.push(resource_diag(&d, &addr_s, decl));
        }
        if let Some(p) = &prior {
            config = apply_ignore_changes(&decl.lifecycle, &config, &p.value);
        }
        let tainted = prior.as_ref().is_some_and(|p| p.tainted);
        let by_request = self.options.replace.contains(&addr);
        let prior_val = match &prior {
            Some(p) if !tainted => p.value.clone(),
            _ => Value::null(ty.clone()),
        };
        let prior_private = prior
            .as_ref()
            .map(|p| p.private.clone())
            .unwrap_or_default();
        let Some(first) = self.call_plan(
            &provider,
            schema,
            &addr_s,
            decl,
            &prior_val,
            &config,
            &prior_private,
            acc,
        ) else {
            return Value::unknown(ty);
        };
        let (mut planned, mut private, replace_paths) = first;
        let cbd = decl.lifecycle.create_before_destroy;
        let (action, reason) = match &prior {
            None => (Action::Create, None),
            Some(_) if tainted => (
                replace_action(cbd),
                Some(ActionReason::ReplaceBecauseTainted),
            ),
            Some(p) => {
                let changed: Vec<Vec<PathStep>> = replace_paths
                    .iter()
                    .filter(|path| {
                        value_at(&p.value, path).map(|v| v.deep_unmark().0)
                            != value_at(&planned, path).map(|v| v.deep_unmark().0)
                    })
                    .cloned()
                    .collect();
                let forced = !changed.is_empty() || by_request;
                if forced {
                    // Plan the replacement object as a create.
                    let null = Value::null(ty.clone());
                    match self.call_plan(&provider, schema, &addr_s, decl, &null, &config, &[], acc)
                    {
                        Some((pl, pr, _)) => {
                            planned = pl;
                            private = pr;
                        }
                        None => return Value::unknown(ty),
                    }
                    let reason = if changed.is_empty() {
                        ActionReason::ReplaceByRequest
                    } else {
                        ActionReason::ReplaceBecauseCannotUpdate
                    };
                    self.push_change(
                        addr,
                        cfg,
                        schema,
                        replace_action(cbd),
                        Some(reason),
                        p.value.clone(),
                        planned.clone(),
                        changed,
                        private,
                        dependencies,
                        cbd,
                        acc,
                    );
                    return planned;
                }
                if planned.deep_unmark().0 == p.value.deep_unmark().0 {
                    (Action::NoOp, None)
                } else {
                    (Action::Update, None)
                }
            }
        };
        let before = prior
            .as_ref()
            .map(|p| p.value.clone())
            .unwrap_or_else(|| Value::null(ty.clone()));
        let _ = prior.as_ref().map(|p| p.schema_version);
        let result = if action == Action::NoOp {
            before.clone()
        } else {
            planned.clone()
        };
        self.push_change(
            addr,
            cfg,
            schema,
            action,
            reason,
            before,
            planned,
            Vec::new(),
            private,
            dependencies,
            cbd,
            acc,
        );
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn push_change(
        &self,
        addr: AbsResourceInstance,
        cfg: &AbsProviderConfig,
        schema: &Schema,
        action: Action,
        reason: Option<ActionReason>,
        before: Value,
        after: Value,
        requires_replace: Vec<Vec<PathStep>>,
        planned_private: Vec<u8>,
        dependencies: Vec<String>,
        cbd: bool,
        acc: &mut Acc,
    ) {
        acc.changes.push(ResourceInstanceChange {
            addr,
            deposed: None,
            provider: cfg.clone(),
            action,
            reason,
            before,
            after,
            requires_replace,
            planned_private,
            schema_version: schema.version,
            dependencies,
            create_before_destroy: cbd,
        });
    }

    /// One PlanResourceChange call with core's checks; None after reporting errors.
    #[allow(clippy::too_many_arguments)]
    fn call_plan(
        &self,
        provider: &std::sync::Arc<dyn ferro_provider::Provider>,
        schema: &Schema,
        addr: &str,
        decl: &ResourceDecl,
        prior: &Value,
        config: &Value,
        prior_private: &[u8],
        acc: &mut Acc,
    ) -> Option<(Value, Vec<u8>, Vec<Vec<PathStep>>)> {
        let (plain_cfg, cfg_marks) = config.deep_unmark();
        let (plain_prior, _) = prior.deep_unmark();
        let proposed = proposed_new(&schema.block, &plain_prior, &plain_cfg);
        let resp = provider.plan_resource_change(PlanRequest {
            type_name: &decl.addr.ty,
            prior_state: &plain_prior,
            proposed_new_state: &proposed,
            config: &plain_cfg,
            prior_private,
        });
        let mut failed = false;
        for d in &resp.diagnostics {
            failed |= d.severity == Severity::Error;
            acc.diags.push(resource_diag(d, addr, decl));
        }
        if failed {
            return None;
        }
        // Named as Terraform names it: the provider's source address.
        // Named as Terraform names it: the provider's source address (looked up only for
        // the message).
        let provider_name = || {
            self.providers
                .by_resource
                .iter()
                .find(|(r, _)| r.resource == decl.addr)
                .map(|(_, c)| c.provider.to_string())
                .unwrap_or_else(|| decl.addr.implied_provider().to_string())
        };
        if convert(&resp.planned_state, &schema.block.implied_type()).is_err() {
            acc.diags.push(
                Diagnostic::error("provider-invalid-plan", "Provider produced invalid plan")
                    .with_detail(format!("Provider {:?} planned an invalid value for {addr}: the planned object does not conform to the resource type schema.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", provider_name()))
                    .with_address(addr),
            );
            return None;
        }
        if !resp.legacy_type_system {
            let errs =
                assert_plan_valid(&schema.block, &plain_prior, &plain_cfg, &resp.planned_state);
            if !errs.is_empty() {
                for e in errs {
                    acc.diags.push(
                        Diagnostic::error("provider-invalid-plan", "Provider produced invalid plan")
                            .with_detail(format!("Provider {:?} planned an invalid value for {addr}{e}.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", provider_name()))
                            .with_address(addr),
                    );
                }
                return None;
            }
        }
        // Sensitivity from the configuration carries over to the planned object.
        let planned = carry_marks(&resp.planned_state, config, cfg_marks);
        Some((planned, resp.planned_private, resp.requires_replace))
    }
}

/// The value a resource has in expressions: its one instance, a tuple (count) or an object
/// keyed like for_each.
fn resource_value(
    expansion: Expansion,
    mut instances: Vec<(InstanceKey, Value)>,
    schema: &Schema,
) -> Value {
    match expansion {
        Expansion::Single => instances
            .pop()
            .map(|(_, v)| v)
            .unwrap_or_else(|| Value::null(schema.block.implied_type())),
        Expansion::Count => Value::tuple(instances.into_iter().map(|(_, v)| v).collect()),
        Expansion::ForEach => Value::object(
            instances
                .into_iter()
                .map(|(k, v)| {
                    (
                        if let InstanceKey::Str(s) = k {
                            s
                        } else {
                            String::new()
                        },
                        v,
                    )
                })
                .collect(),
        ),
    }
}

/// How many instances of one resource are planned at once (Terraform's default parallelism).
const PLAN_PARALLELISM: usize = 10;

/// `f` over `items` on up to `threads` threads; results in the order of `items`.
fn parallel_map<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let n = items.len();
    if n <= 1 || threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let queue = std::sync::Mutex::new(items.into_iter().enumerate());
    let results: std::sync::Mutex<Vec<Option<R>>> =
        std::sync::Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(n) {
            scope.spawn(|| loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                let Some((i, item)) = next else { break };
                let r = f(item);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

fn replace_action(cbd: bool) -> Action {
    if cbd {
        Action::CreateThenDelete
    } else {
        Action::DeleteThenCreate
    }
}

/// Marks on configuration attributes are carried to the same attributes of the planned object.
fn carry_marks(planned: &Value, config: &Value, top: ferro_value::Marks) -> Value {
    match (&planned.kind, config.as_entries()) {
        (ValueKind::Object(pm), Some(cm)) => {
            let mut out = (**pm).clone();
            for (k, v) in out.iter_mut() {
                if let Some(c) = cm.get(k) {
                    if c.contains_sensitive() {
                        *v = if c.is_sensitive() {
                            v.clone().with_marks(c.marks)
                        } else {
                            carry_marks(v, c, ferro_value::Marks::NONE)
                        };
                    }
                }
            }
            Value::object(out).with_marks(top)
        }
        _ => planned.clone().with_marks(config.marks),
    }
}

fn apply_ignore_changes(lc: &ferro_hir::Lifecycle, config: &Value, prior: &Value) -> Value {
    if !lc.ignore_all_changes && lc.ignore_changes.is_empty() {
        return config.clone();
    }
    let (Some(cm), Some(pm)) = (config.as_entries(), prior.as_entries()) else {
        return config.clone();
    };
    let mut out = cm.clone();
    for (k, v) in out.iter_mut() {
        if lc.ignore_all_changes || lc.ignore_changes.iter().any(|n| n == k) {
            if let Some(p) = pm.get(k) {
                *v = p.clone();
            }
        }
    }
    Value::object(out).with_marks(config.marks)
}
