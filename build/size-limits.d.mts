export declare const APP_FILES_LIMIT_MB: number;
export declare const INSTALLER_LIMIT_MB: number;
export declare const MB: number;
