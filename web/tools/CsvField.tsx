import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { parseCsv, toCsv } from './csv-table';
import { downloadText, formatBytes } from './download';
import { jsonText } from './json-text';
import { describedBy, fieldId, FieldNotes, type FieldProps } from './FieldNotes';

/** Tables longer than this are edited as text (hundreds of inputs help nobody). */
const MAX_TABLE_ROWS = 200;

function limitText(f: FieldProps['field']): string {
  if (f.limit?.bytes !== undefined) return `at most ${formatBytes(f.limit.bytes)}`;
  if (f.limit?.characters !== undefined) return `at most ${f.limit.characters} characters`;
  return '';
}

/** A file picker that refuses an oversize file before reading it, naming the limit. */
function UploadControl({ props, accept, what }: { props: FieldProps; accept: string; what: string }) {
  const { field, onChange, onInputMethod } = props;
  const [problem, setProblem] = useState<string | null>(null);
  const id = `${fieldId(field.name)}-file`;
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const maxBytes =
      field.limit?.bytes ?? (field.limit?.characters !== undefined ? field.limit.characters * 4 : undefined);
    if (maxBytes !== undefined && file.size > maxBytes) {
      setProblem(
        `${file.name} is ${formatBytes(file.size)}: the limit is ${limitText(field).replace('at most ', '')}. Nothing was uploaded.`,
      );
      return;
    }
    const text = await file.text();
    if (field.limit?.characters !== undefined && text.length > field.limit.characters) {
      setProblem(
        `${file.name} has ${text.length} characters: the limit is ${field.limit.characters}. Nothing was uploaded.`,
      );
      return;
    }
    setProblem(null);
    onChange(text);
    onInputMethod('upload');
  };
  return (
    <div className="upload">
      <label htmlFor={id} className="upload-label">
        Upload a {what} file ({limitText(field)})
      </label>
      <input
        id={id}
        type="file"
        accept={accept}
        onChange={onFile}
        aria-describedby={problem ? `${id}-problem` : undefined}
      />
      {problem && (
        <div className="field-error" id={`${id}-problem`} role="alert" data-testid={`upload-error-${field.name}`}>
          {problem}
        </div>
      )}
    </div>
  );
}

/**
 * The rows the table shows. They live here while the person edits, so a row just added (or whose
 * cells were all cleared) stays on screen although its CSV line is blank; a text that changes
 * elsewhere (the textarea, an upload, the sample) is read again.
 */
function useEditedRows(text: string): [string[][], (rows: string[][]) => string] {
  const [edited, setEdited] = useState(() => ({ text, rows: parseCsv(text) }));
  let current = edited;
  if (edited.text !== text) {
    current = { text, rows: parseCsv(text) };
    setEdited(current); // derived from a new prop: React re-renders at once, before painting
  }
  const set = (rows: string[][]) => {
    const csv = toCsv(rows);
    setEdited({ text: csv, rows });
    return csv;
  };
  return [current.rows, set];
}

function TableEditor({
  props,
  rows,
  setRows,
}: {
  props: FieldProps;
  rows: string[][];
  setRows(rows: string[][]): string;
}) {
  const { field, onChange, onInputMethod } = props;
  const header = rows[0] ?? [];
  const width = Math.max(1, header.length, ...rows.map((r) => r.length));
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [focusRow, setFocusRow] = useState<number | null>(null);
  useEffect(() => {
    if (focusRow === null) return;
    bodyRef.current?.rows[focusRow]?.querySelector('input')?.focus();
    setFocusRow(null); // eslint-disable-line react-hooks/set-state-in-effect -- a one-shot request, done once the row is on screen
  }, [focusRow]);
  const update = (next: string[][]) => {
    onChange(setRows(next));
    onInputMethod('manual');
  };
  const setCell = (r: number, c: number, v: string) =>
    update(
      rows.map((row, i) => (i === r ? Array.from({ length: width }, (_, j) => (j === c ? v : (row[j] ?? ''))) : row)),
    );
  const addRow = () => {
    const next = [...(rows.length ? rows : [header]), Array.from({ length: width }, () => '')];
    update(next);
    setFocusRow(next.length - 1);
  };
  return (
    <div className="table-wrap csv-table">
      <table>
        <caption className="visually-hidden">{field.label}: editable table, first row is the header</caption>
        <tbody ref={bodyRef}>
          {rows.map((row, r) => (
            <tr key={r}>
              {Array.from({ length: width }, (_, c) => (
                <td key={c}>
                  <input
                    type="text"
                    value={row[c] ?? ''}
                    className={r === 0 ? 'csv-header' : undefined}
                    aria-label={
                      r === 0
                        ? `${field.label}: column ${c + 1} header`
                        : `${field.label}: ${header[c] || `column ${c + 1}`}, row ${r}`
                    }
                    onChange={(e) => setCell(r, c, e.target.value)}
                  />
                </td>
              ))}
              <td>
                {r > 0 && (
                  <button
                    type="button"
                    className="secondary small"
                    aria-label={`Remove row ${r}`}
                    onClick={() => update(rows.filter((_, i) => i !== r))}
                  >
                    ×
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" className="secondary small" onClick={addRow}>
        Add a row
      </button>
    </div>
  );
}

/** A CSV body field: upload (inputMethod upload), an editable table or the text (manual), a sample to download. */
export function CsvField(props: FieldProps) {
  const { field, value, error, onChange, onInputMethod } = props;
  const text = String(value);
  const [rows, setRows] = useEditedRows(text);
  const sample = jsonText(field.example ?? field.default);
  const textId = `${fieldId(field.name)}-text`;
  return (
    <fieldset className="field csv-field" aria-describedby={describedBy(field, error)}>
      <legend>{field.label}</legend>
      <div className="actions">
        <UploadControl props={props} accept=".csv,text/csv,text/plain" what="CSV" />
        {sample && (
          <button
            type="button"
            className="secondary small"
            onClick={() => downloadText(`${field.name}-sample.csv`, sample + '\n', 'text/csv')}
          >
            Download a sample CSV
          </button>
        )}
      </div>
      {rows.length > MAX_TABLE_ROWS ? (
        <p className="muted">{rows.length - 1} rows: too many to edit as a table here; edit the text below.</p>
      ) : rows.length > 0 ? (
        <TableEditor props={props} rows={rows} setRows={setRows} />
      ) : (
        sample && (
          <button type="button" className="secondary small" onClick={() => (onChange(sample), onInputMethod('manual'))}>
            Start from the sample
          </button>
        )
      )}
      <details>
        <summary>Paste or edit as text</summary>
        <label htmlFor={textId}>{field.label} as CSV text</label>
        <textarea
          id={textId}
          name={field.name}
          value={text}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(field, error)}
          onChange={(e) => (onChange(e.target.value), onInputMethod('manual'))}
        />
      </details>
      <FieldNotes field={field} error={error} />
    </fieldset>
  );
}

/** A long free-text field (the LP letter): a text file upload or a paste. */
export function TextBlockField(props: FieldProps) {
  const { field, value, error, onChange, onInputMethod } = props;
  const id = fieldId(field.name);
  return (
    <div className="field text-field">
      <label htmlFor={id}>{field.label}</label>
      <textarea
        id={id}
        name={field.name}
        value={String(value)}
        rows={10}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(field, error)}
        onChange={(e) => (onChange(e.target.value), onInputMethod('manual'))}
      />
      <UploadControl props={props} accept=".txt,.md,text/plain" what="text" />
      <FieldNotes field={field} error={error} />
    </div>
  );
}
