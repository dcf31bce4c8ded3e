// The package root's export list is deliberate: these tests pin it (names, namespaces, types), keep internal
// machinery out, and fail when a notebook, the study script or the README uses a name the root no longer has.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as rdw from '../src/index.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The root's runtime names, then each namespace's, as the pinned lists below write them. */
const NAMES = [
  'BaseRateModel',
  'EXIT_CODES',
  'LABEL_FIELD_NAMES',
  'LOCK_VERSION',
  'LogisticRegression',
  'MARKET_EVENT_FIELDS',
  'PREDICTOR_FIELD_NAMES',
  'RdwError',
  'SYMBOLS',
  'Study',
  'WINDOWS',
  'charts',
  'checkFeatureSet',
  'connectApi',
  'createAnalysisViews',
  'createClient',
  'defaultModelSpec',
  'defineFeatureSet',
  'defineModelSpec',
  'derivedFeature',
  'effectInterval',
  'effectPoints',
  'errors',
  'evaluateModel',
  'eventStudy',
  'exportParquet',
  'fieldsWithRole',
  'groupStats',
  'isRdwError',
  'listImportedReleases',
  'missingnessBars',
  'missingnessSummary',
  'mock',
  'modelCatalog',
  'modelEvaluationColumns',
  'modelEvaluationTable',
  'modelScoreChartOptions',
  'modelStudy',
  'notebook',
  'openCatalog',
  'openWorkbench',
  'outcome',
  'pointInTimeCounts',
  'pullRelease',
  'pullReleases',
  'purgedKFoldSplits',
  'readLock',
  'readMarketEventRows',
  'recordStudyLock',
  'repairStore',
  'reproduceStudy',
  'rowKFoldSplits',
  'splitPredictorsAndLabels',
  'splitRowIdentities',
  'studyCatalog',
  'studyLockFromJson',
  'studyLockToJson',
  'toDataFrame',
  'trailingChange',
  'trailingMean',
  'trailingRank',
  'verifyStore',
  'verifyStudyLock',
  'walkForwardSplits',
  'writeLock',
  'writeStudyReport',
];

const TYPES = [
  'ApiConnection',
  'Catalog',
  'CatalogMarketEventRow',
  'CatalogOptions',
  'CatalogRow',
  'ClientOptions',
  'ConnectApiOptions',
  'DataFrameLike',
  'EventStudyOptions',
  'EventStudyResult',
  'EventStudyRow',
  'ExitCode',
  'FeatureMatrix',
  'FeatureSet',
  'FieldRole',
  'FieldSpec',
  'FoldEvaluation',
  'GroupStat',
  'GroupStatsOptions',
  'GroupStatsRow',
  'ImportedRelease',
  'ListedRelease',
  'LockVerification',
  'LockedFile',
  'LockedRelease',
  'MarketEventRow',
  'MarketEventRowsOptions',
  'MarketSymbol',
  'MissingnessCell',
  'Model',
  'ModelData',
  'ModelEvaluation',
  'ModelEvaluationRow',
  'ModelFold',
  'ModelSpec',
  'ModelSplitOptions',
  'ModelStudyOptions',
  'ModelStudyResult',
  'PullReleasesResult',
  'PullResult',
  'RdwClient',
  'Release',
  'ReproduceReport',
  'StoreFileRepair',
  'StoreRepair',
  'StoreVerification',
  'StudyLock',
  'StudyOpenOptions',
  'TimeSplit',
  'TimeSplits',
  'Window',
  'Workbench',
  'WorkbenchOptions',
];

const NAMESPACES: Record<string, string[]> = {
  charts: ['STATUS_COLORS', 'VEGA_LITE_SCHEMA', 'coverageHeatmapSpec', 'effectChartSpec', 'missingnessChartSpec', 'modelScoreChartSpec', 'renderSvg', 'statusColorScale', 'windowOrder'],
  notebook: [
    'MISSINGNESS_COLUMNS',
    'NotInKernelError',
    'NotebookOptionError',
    'VEGA_LITE_MIME',
    'chartBundle',
    'displayBundle',
    'displayChart',
    'formatValue',
    'htmlTable',
    'missingnessRows',
    'notebookMessages',
    'snapshotHistoryPoints',
    'snapshotHistorySpec',
    'studyHeaderHtml',
    'studyHeaderRows',
    'studyHeaderText',
    'studySummaryLine',
    'studyTableColumns',
    'studyTableHtml',
    'studyTableText',
    'textTable',
  ],
  mock: [
    'DEFAULT_MOCK_NOW',
    'DEFAULT_ROW_QUERY_MAX_ROWS',
    'DEFAULT_SIMULATOR_NOW',
    'EVENT_RULES',
    'FAULT_KINDS',
    'FaultSet',
    'KeySlotsFullError',
    'MARKET_PROFILES',
    'MarketSimulator',
    'MockError',
    'MockServerOptionError',
    'PLANTED_EFFECTS',
    'ReleaseArchive',
    'ReleaseArchiveOptionError',
    'ReleaseNotFoundError',
    'ReleaseRegenerationError',
    'ReleaseValueError',
    'ResearchOptionError',
    'ResearchSnapshotSet',
    'SEEDED_KEY_NAMES',
    'SimulatorArgumentError',
    'SimulatorOptionError',
    'UnknownAccountError',
    'researchSnapshots',
    'resolveFaultRule',
    'resolveMockLimits',
    'resolveMockServerOptions',
    'resolveReleaseArchiveOptions',
    'resolveSimulatorOptions',
    'serverMessages',
    'startMockServer',
  ],
};

/** Names the root exports as types only, read from src/index.ts (`export type { … }`). */
function rootTypeNames(): string[] {
  const source = ts.createSourceFile('index.ts', read('src/index.ts'), ts.ScriptTarget.ES2022);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.isTypeOnly) continue;
    const clause = statement.exportClause;
    if (clause && ts.isNamedExports(clause)) names.push(...clause.elements.map((element) => element.name.text));
  }
  return names.sort();
}

/** Code of every notebook cell and of the study script, with the file it came from. */
function notebookCode(): { file: string; code: string }[] {
  const folder = path.join(ROOT, 'notebooks');
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ipynb') || file.endsWith('.ts'))
    .map((file) => {
      const text = readFileSync(path.join(folder, file), 'utf8');
      if (file.endsWith('.ts')) return { file, code: text };
      const cells = (JSON.parse(text) as { cells: { cell_type: string; source: string[] | string }[] }).cells;
      const code = cells.filter((cell) => cell.cell_type === 'code').map((cell) => [cell.source].flat().join(''));
      return { file, code: code.join('\n') };
    });
}

/** The `import { … } from '<root>'` names of `code` (the root as `rdw` or the built `dist/index.js`). */
function rootImports(code: string): string[] {
  const names: string[] = [];
  for (const match of code.matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*'(?:rdw|(?:\.\.\/)+dist\/index\.js)'/g)) {
    // Prose such as `import { … } from 'rdw'` names nothing: only identifiers count.
    names.push(...match[2]!.split(',').map((name) => name.trim().replace(/^type\s+/, '')).filter((name) => /^\w+$/.test(name)));
  }
  return names;
}

describe('the package root (src/index.ts)', () => {
  it('exports exactly the pinned names: a change to this list is deliberate', () => {
    expect(Object.keys(rdw).sort()).toEqual(NAMES);
  });

  it('exports exactly the pinned types', () => {
    expect(rootTypeNames()).toEqual(TYPES);
  });

  it.each(Object.entries(NAMESPACES))('namespace %s exports exactly the pinned names', (name, expected) => {
    expect(Object.keys((rdw as unknown as Record<string, object>)[name]!).sort()).toEqual(expected);
  });

  it('keeps internal machinery out of the root and out of every namespace', () => {
    const reachable = new Set(Object.keys(rdw));
    for (const name of Object.keys(NAMESPACES)) {
      for (const key of Object.keys((rdw as unknown as Record<string, object>)[name]!)) reachable.add(key);
    }
    for (const internal of ['MIGRATIONS', 'runMigrations', 'checkDataFile', 'importRelease', 'predictorsViewSql', 'idInListSql', 'catalogMessages']) {
      expect(reachable.has(internal), internal).toBe(false);
    }
    expect(['contract', 'client', 'catalog', 'analysis', 'study', 'workbench', 'report'].filter((layer) => layer in rdw)).toEqual([]);
  });

  it('has every name the notebooks and the study script import from it, and every namespace member they use', () => {
    const files = notebookCode();
    expect(files.map((file) => file.file)).toEqual(expect.arrayContaining(['01-quickstart.ipynb', '02-event-study.ipynb', '02-event-study.ts']));
    for (const { file, code } of files) {
      const imported = rootImports(code);
      expect(imported.length, `${file} imports from the package root`).toBeGreaterThan(0);
      for (const name of imported) expect(name in rdw || TYPES.includes(name), `${file}: ${name}`).toBe(true);
      for (const namespace of imported.filter((name) => name in NAMESPACES)) {
        for (const [, member] of code.matchAll(new RegExp(`\\b${namespace}\\.(\\w+)`, 'g'))) {
          expect(NAMESPACES[namespace], `${file}: ${namespace}.${member}`).toContain(member);
        }
      }
    }
  });

  it('has every name the README imports from it', () => {
    const imported = rootImports(read('README.md'));
    expect(imported.length).toBeGreaterThan(0);
    for (const name of imported) expect(name in rdw || TYPES.includes(name), name).toBe(true);
  });
});
