"""D&D 5e (SRD 5.2). Quotes from ``../shared/reglas/dnd5e-srd52.txt`` (Spanish) and,
where it stops, the SRD's own English.
"""
