// Reads one derived feature's SQL with DuckDB itself: its parser (json_serialize_sql) gives the expression tree,
// where a label named anywhere (any case, quoted or not, in a subquery or a CTE) and every construct that can see
// other rows are found; then its binder binds the expression against a relation of the row fields the scope allows
// (no label for a predictor), so a name the tree walk missed still fails. No SQL is parsed by hand.

import type { DuckDBConnection } from '@duckdb/node-api';
import { MARKET_EVENT_FIELDS, fieldSpec } from '../contract/index.js';
import { quoteIdentifier, quoteLiteral } from '../base/index.js';
import { DUCKDB_TYPE } from '../catalog/index.js';
import { AnalysisOptionError, UnknownColumnError } from './analysis-errors.js';
import { CrossRowFeatureError } from './cross-row-feature-error.js';
import { LeakageError } from './leakage-error.js';
import { trailingSpecOf } from './feature-trust.js';
import type { DerivedFeature } from './derived-feature.js';
import { analysisMessages } from './messages.js';

/** A predictor may read no label; a model's target is made of labels. */
export type FeatureScope = 'predictor' | 'target';

/** Expression classes of one row's values; anything else (window, subquery, star, #n, parameter…) is refused. */
const ROW_EXPRESSION_CLASSES = new Set([
  'BETWEEN', 'CASE', 'CAST', 'COLLATE', 'COLUMN_REF', 'COMPARISON', 'CONJUNCTION', 'CONSTANT', 'FUNCTION', 'LAMBDA', 'LAMBDA_REF', 'OPERATOR',
]);

/** Scalar functions that read the connection's state rather than the row (a variable could hold labels). */
const STATE_FUNCTIONS = new Set(['getvariable', 'current_setting']);

/**
 * Scalar functions that bind and plan SQL text against the connection's catalog: the guard's empty database has
 * no table, so they pass its binder, while on a catalog json_serialize_plan('SELECT 1 FROM market_events WHERE
 * return_pct_1h > ' || price, optimize := true) folds to an empty result by the table's statistics, every row's
 * labels (an adversary's trial, session 43).
 */
const CATALOG_FUNCTIONS = new Set(['json_serialize_plan']);

type Node = Record<string, unknown>;

/**
 * Checks one derived feature's own SQL (its derived inputs are columns here: check them first).
 * @param connection a connection of an empty in-memory DuckDB, so no table, view or macro of a catalog is visible
 * @throws LeakageError (a predictor's SQL names a label), CrossRowFeatureError (a construct that sees other rows),
 *   UnknownColumnError (a name that is no field nor declared input), AnalysisOptionError (not one expression)
 */
export async function checkFeatureSql(connection: DuckDBConnection, feature: DerivedFeature, scope: FeatureScope): Promise<void> {
  const expression = await parsedExpression(connection, feature);
  if (scope === 'predictor') assertNoLabelNamed(feature, expression);
  const functions = new Set<string>();
  const construct = crossRowConstruct(expression, functions);
  if (construct !== undefined) throw crossRow(feature, construct);
  const makesRows = [...functions].find((name) => SET_RETURNING_FUNCTIONS.has(name));
  if (makesRows !== undefined) throw new CrossRowFeatureError(analysisMessages.setReturning(feature.name, `${makesRows}()`), { column: feature.name, construct: `${makesRows}()` });
  assertNamesKnown(feature, expression, scope);
  await assertRowFunctions(connection, feature, functions);
  await bind(connection, feature, scope);
}

/** Functions that make several rows of one (the rows would no longer line up with the split's). */
const SET_RETURNING_FUNCTIONS = new Set(['unnest', 'generate_subscripts']);

/** The expression tree of `SELECT (<sql>)`: exactly one expression, nothing around it (no FROM, WHERE, second statement). */
async function parsedExpression(connection: DuckDBConnection, feature: DerivedFeature): Promise<Node> {
  const reader = await connection.runAndReadAll(`SELECT json_serialize_sql(${quoteLiteral(`SELECT (${feature.sql})`)}) AS tree`);
  const tree = JSON.parse(String(reader.getRowObjectsJS()[0]!.tree)) as Node;
  if (tree.error === true) throw notOneExpression(feature, String(tree.error_message));
  const statements = tree.statements as Node[];
  const node = statements.length === 1 ? (statements[0]!.node as Node) : undefined;
  const bare =
    node !== undefined &&
    node.type === 'SELECT_NODE' &&
    (node.select_list as unknown[]).length === 1 &&
    (node.from_table as Node).type === 'EMPTY' &&
    (node.where_clause ?? null) === null &&
    ((node.group_expressions as unknown[] | undefined) ?? []).length === 0 &&
    (node.having ?? null) === null &&
    (node.qualify ?? null) === null &&
    ((node.modifiers as unknown[] | undefined) ?? []).length === 0 &&
    (((node.cte_map as Node | undefined)?.map as unknown[] | undefined) ?? []).length === 0;
  if (!bare) throw notOneExpression(feature, 'more than one expression, or a clause around it');
  return (node.select_list as Node[])[0]!;
}

function assertNoLabelNamed(feature: DerivedFeature, expression: Node): void {
  for (const { parts } of columnReferences(expression)) {
    const spec = fieldSpec(parts[parts.length - 1]!.toLowerCase());
    if (spec?.role === 'label') throw readsLabel(feature, spec.name, spec.window ?? 'unknown');
  }
}

/**
 * Every name the expression reads must be a field its scope allows or one of its declared derived inputs, named by
 * itself: DuckDB reads a relation's name as its whole row (a struct of every field, labels too), and a qualified
 * name reaches a relation. The guard's own relation (feature_row) and an unaliased subquery's are such names.
 * @throws UnknownColumnError
 */
function assertNamesKnown(feature: DerivedFeature, expression: Node, scope: FeatureScope): void {
  const inputs = new Set(feature.inputs.filter((input) => typeof input !== 'string').map((input) => (input as DerivedFeature).name.toLowerCase()));
  for (const { parts } of columnReferences(expression)) {
    const written = parts.join('.');
    if (parts.length !== 1) throw new UnknownColumnError(analysisMessages.qualifiedName(feature.name, written), { option: feature.name });
    const name = parts[0]!.toLowerCase();
    const spec = fieldSpec(name);
    const allowed = inputs.has(name) || (spec !== undefined && (scope === 'target' || spec.role !== 'label'));
    if (!allowed) throw new UnknownColumnError(analysisMessages.unknownColumnInSql(feature.name, parts[0]!), { option: feature.name });
  }
}

/**
 * The column references of an expression (subqueries and CTEs entered), without a lambda's parameters inside its
 * body (`list_transform(l, x -> x * 2)` reads no column x). A name is a parameter only as written, case and all:
 * DuckDB gives a row's column first to a name that matches a parameter without regard to case only (`lambda
 * RETURN_PCT_1H: return_pct_1h` reads the label where the row holds it, and the parameter in the guard's relation,
 * which does not: its binder saw nothing wrong; an adversary's trial, session 43).
 */
function* columnReferences(value: unknown, parameters: ReadonlySet<string> = new Set()): Generator<{ parts: string[] }> {
  if (Array.isArray(value)) {
    for (const item of value) yield* columnReferences(item, parameters);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as Node;
  if (node.class === 'LAMBDA') {
    const declared = lambdaParameters(node.lhs);
    // No parameter list on the left: DuckDB's JSON arrow (`(price + 0) -> '$'`), whose left side reads the row.
    if (declared === undefined) {
      yield* columnReferences(node.lhs, parameters);
      yield* columnReferences(node.expr, parameters);
      return;
    }
    // `x -> '$'` may be the JSON arrow too, reading x: a name that matches an enclosing parameter only without regard
    // to case is then the row's column at run time (and that parameter in the guard's relation), so it is read here.
    for (const name of declared) {
      if (!parameters.has(name) && [...parameters].some((parameter) => parameter.toLowerCase() === name.toLowerCase())) yield { parts: [name] };
    }
    yield* columnReferences(node.expr, new Set([...parameters, ...declared]));
    return;
  }
  if (node.class === 'COLUMN_REF') {
    const parts = node.column_names as string[];
    if (!(parts.length === 1 && parameters.has(parts[0]!))) yield { parts };
    return;
  }
  for (const child of Object.values(node)) yield* columnReferences(child, parameters);
}

/** A lambda's parameter names as written (`x`, or `x, i` as row(x, i)); undefined when the left side is no such list. */
function lambdaParameters(lhs: unknown): string[] | undefined {
  const single = (value: unknown): string | undefined => {
    const node = value as Node | null;
    const parts = node?.class === 'COLUMN_REF' ? (node.column_names as string[]) : undefined;
    return parts?.length === 1 ? parts[0] : undefined;
  };
  const one = single(lhs);
  if (one !== undefined) return [one];
  const node = lhs as Node | null;
  if (node?.class !== 'FUNCTION' || String(node.function_name).toLowerCase() !== 'row') return undefined;
  const names = (node.children as unknown[]).map(single);
  return names.every((name) => name !== undefined) ? (names as string[]) : undefined;
}

/** The first construct that can see other rows (a subquery is refused whole, not entered); collects function names. */
function crossRowConstruct(value: unknown, functions: Set<string>): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = crossRowConstruct(item, functions);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const node = value as Node;
  const kind = node.class;
  if (kind === 'WINDOW') return `the window function ${String(node.function_name)}() OVER (…)`;
  if (kind === 'SUBQUERY') return subqueryName(node);
  if (kind === 'STAR') return node.columns === true ? 'COLUMNS(…)' : 'a * expression';
  if (kind === 'POSITIONAL_REFERENCE') return 'a positional reference (#n)';
  if (typeof kind === 'string' && !ROW_EXPRESSION_CLASSES.has(kind)) return `a ${kind.toLowerCase()} expression`;
  if (kind === 'FUNCTION') {
    const name = String(node.function_name).toLowerCase();
    if (STATE_FUNCTIONS.has(name)) return `${name}(), which reads the connection's state`;
    if (CATALOG_FUNCTIONS.has(name)) return analysisMessages.plansAgainstCatalog(`${name}()`);
    functions.add(name);
  }
  for (const child of Object.values(node)) {
    const found = crossRowConstruct(child, functions);
    if (found !== undefined) return found;
  }
  return undefined;
}

function subqueryName(node: Node): string {
  const inner = (node.subquery as Node | undefined)?.node as Node | undefined;
  const withCte = ((inner?.cte_map as Node | undefined)?.map as unknown[] | undefined)?.length ?? 0;
  if (withCte > 0) return 'a WITH (CTE) subquery';
  if (node.subquery_type === 'EXISTS' || node.subquery_type === 'NOT_EXISTS') return 'an EXISTS subquery';
  if (node.subquery_type === 'ANY') return 'an IN (SELECT …) subquery';
  return 'a scalar subquery';
}

/** Functions that read the clock or the machine, though DuckDB calls them CONSISTENT. */
const MOMENT_FUNCTIONS = new Set(['current_localtimestamp', 'current_localtime', 'version']);

/**
 * Aggregates summarise every row of the query: refused by name (DuckDB's function catalog says which are). So is a
 * function whose value is not the row's alone (random(), now(), nextval(), write_log(), setseed()…: DuckDB's
 * stability VOLATILE or CONSISTENT_WITHIN_QUERY, and MOMENT_FUNCTIONS): a study must give the same numbers on every
 * run. error('…') is VOLATILE to DuckDB but fails alike on every run: allowed (the study says its failure).
 * DuckDB's own macros (stability unset) are read through: pg_get_viewdef() hides a subquery on the catalog's views,
 * pg_conf_load_time() is current_timestamp, so a macro's definition is held to the same rules, its functions too.
 */
async function assertRowFunctions(connection: DuckDBConnection, feature: DerivedFeature, functions: Set<string>): Promise<void> {
  const seen = new Set<string>();
  let pending = [...functions];
  while (pending.length > 0) {
    const names = pending.filter((name) => !seen.has(name));
    pending = [];
    if (names.length === 0) break;
    for (const name of names) seen.add(name);
    const rows = (
      await connection.runAndReadAll(
        `SELECT function_name, function_type, stability, macro_definition, parameters FROM duckdb_functions()
        WHERE function_name IN (${names.map(quoteLiteral).join(', ')}) ORDER BY function_type = 'aggregate' DESC, function_name`,
      )
    ).getRowObjectsJS();
    for (const row of rows) {
      const name = String(row.function_name);
      if (row.function_type === 'aggregate') throw crossRow(feature, `the aggregate ${name}()`);
      const unstable = (row.stability === 'VOLATILE' || row.stability === 'CONSISTENT_WITHIN_QUERY') && name !== 'error';
      if (unstable || MOMENT_FUNCTIONS.has(name)) throw new AnalysisOptionError(analysisMessages.unstableFunction(feature.name, `${name}()`), { option: feature.name });
      if (row.macro_definition === null || row.macro_definition === undefined) continue;
      pending.push(...(await macroFunctions(connection, feature, name, String(row.macro_definition), (row.parameters as string[] | null) ?? [])));
    }
  }
}

/** The functions a macro's definition calls; a construct that sees other rows, or a name that is no parameter, refused. */
async function macroFunctions(connection: DuckDBConnection, feature: DerivedFeature, name: string, definition: string, parameters: readonly string[]): Promise<string[]> {
  const reader = await connection.runAndReadAll(`SELECT json_serialize_sql(${quoteLiteral(`SELECT (${definition})`)}) AS tree`);
  const tree = JSON.parse(String(reader.getRowObjectsJS()[0]!.tree)) as Node;
  const expression = ((((tree.statements as Node[] | undefined)?.[0]?.node as Node | undefined)?.select_list as Node[] | undefined) ?? [])[0];
  if (tree.error === true || expression === undefined) throw crossRow(feature, `${name}(), a macro rdw cannot read`);
  const inner = new Set<string>();
  const construct = crossRowConstruct(expression, inner);
  if (construct !== undefined) throw crossRow(feature, `${name}(), a macro that uses ${construct}`);
  const own = new Set(parameters.map((parameter) => parameter.toLowerCase()));
  // A bare name in a macro's body that is none of its parameters is a keyword value such as current_timestamp.
  for (const { parts } of columnReferences(expression)) {
    if (!(parts.length === 1 && own.has(parts[0]!.toLowerCase()))) throw new AnalysisOptionError(analysisMessages.unstableFunction(feature.name, `${name}()`), { option: feature.name });
  }
  return [...inner];
}

/** Binds the expression against the allowed fields only; DuckDB's binder names what it could not find. */
async function bind(connection: DuckDBConnection, feature: DerivedFeature, scope: FeatureScope): Promise<void> {
  // row_id beside the expression: an aggregate the name lookup missed cannot bind next to a plain column.
  const sql = `SELECT (${feature.sql}) AS "__feature", "row_id" FROM ${relationSql(feature, scope)} AS feature_row LIMIT 0`;
  try {
    await connection.run(sql);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const missing = /Referenced column "?([^"\s]+)"? not found/i.exec(message)?.[1];
    if (missing !== undefined) {
      const spec = fieldSpec(missing.toLowerCase());
      if (spec?.role === 'label') throw readsLabel(feature, spec.name, spec.window ?? 'unknown');
      throw new UnknownColumnError(analysisMessages.unknownColumnInSql(feature.name, missing), { option: feature.name });
    }
    if (/must appear in the GROUP BY clause/i.test(message)) throw crossRow(feature, 'an aggregate');
    throw notOneExpression(feature, message.split('\n')[0]!);
  }
}

/**
 * One row of typed NULLs: every field the scope allows (a predictor: every field but the labels), plus the
 * feature's derived inputs as columns (computed from their own SQL, or DOUBLE for rdw-built ones).
 */
function relationSql(feature: DerivedFeature, scope: FeatureScope): string {
  const fields = MARKET_EVENT_FIELDS.filter((field) => scope === 'target' || field.role !== 'label');
  return withInputs(`(SELECT ${fields.map((field) => `NULL::${DUCKDB_TYPE[field.type]} AS ${quoteIdentifier(field.name)}`).join(', ')})`, feature);
}

function withInputs(relation: string, feature: DerivedFeature): string {
  let out = relation;
  for (const input of feature.inputs) {
    if (typeof input === 'string') continue;
    const value = trailingSpecOf(input) === undefined ? `(${input.sql})` : 'NULL::DOUBLE';
    if (trailingSpecOf(input) === undefined) out = withInputs(out, input);
    // Aliased: an unaliased subquery's name (unnamed_subquery) would read as a whole row (assertNamesKnown refuses it).
    out = `(SELECT *, ${value} AS ${quoteIdentifier(input.name)} FROM ${out} AS ${quoteIdentifier(`__inputs_${input.name}`)})`;
  }
  return out;
}

function readsLabel(feature: DerivedFeature, label: string, window: string): LeakageError {
  return new LeakageError(analysisMessages.derivedReadsLabel(feature.name, label, window), { column: feature.name, window, label });
}

function crossRow(feature: DerivedFeature, construct: string): CrossRowFeatureError {
  return new CrossRowFeatureError(analysisMessages.crossRowFeature(feature.name, construct), { column: feature.name, construct });
}

function notOneExpression(feature: DerivedFeature, detail: string): AnalysisOptionError {
  return new AnalysisOptionError(analysisMessages.notOneExpression(feature.name, detail), { option: feature.name });
}
